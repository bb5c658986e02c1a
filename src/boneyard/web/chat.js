// Table chat: the log (text only, never HTML), the send box, and mute / unmute per sender.
import { api, el } from "/static/api.js";

const $ = (id) => document.getElementById(id);
let me = null;
let send = () => {};
let muted = new Map(); // user id -> name
const MAX = 300;

function line(msg) {
  const mine = me && msg.user_id === me.id;
  const who = el("b", { class: "who" }, msg.name);
  const item = el("li", { class: `chat-line${mine ? " mine" : ""}`, "data-user": msg.user_id ?? "" },
    who, msg.seat === null || msg.seat === undefined ? el("small", {}, " (watching)") : "", ": ",
    el("span", { class: "text" }, msg.text));
  if (me && !mine && msg.user_id) {
    item.append(" ", el("button", { class: "mute", title: `hide ${msg.name}'s chat on every table`,
      onclick: () => send({ type: "mute", user_id: msg.user_id }) }, "mute"));
  }
  return item;
}

function scroll() {
  const log = $("chat-log");
  log.scrollTop = log.scrollHeight;
}

function renderMuted() {
  const box = $("muted-list");
  box.replaceChildren();
  if (!muted.size) return;
  box.append(el("small", {}, "Muted: "));
  for (const [id, name] of muted) {
    box.append(el("span", { class: "muted-person" }, name, " ",
      el("button", { class: "unmute", onclick: () => send({ type: "unmute", user_id: id }) }, "unmute")), " ");
  }
}

function setMuted(list) {
  muted = new Map((list || []).map((m) => [m.user_id, m.name]));
  for (const li of [...$("chat-log").children]) {
    if (muted.has(Number(li.dataset.user))) li.remove(); // the server sends no more of theirs
  }
  renderMuted();
}

// Set up the panel: `user` is the signed-in person (or null), `sender` sends a socket message.
export function initChat(user, sender) {
  me = user;
  send = sender;
  const form = $("chat-form");
  const input = $("chat-input");
  input.maxLength = MAX;
  if (!me) {
    input.disabled = true;
    input.placeholder = "sign in to chat";
    $("chat-send").disabled = true;
  } else {
    api("GET", "/api/me/mutes").then((r) => setMuted(r.muted)).catch(() => {});
  }
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = input.value.trim();
    $("chat-error").textContent = "";
    if (!text) return;
    send({ type: "chat", text });
    input.value = "";
  });
}

// A socket message of the chat: a line, the history, the mutes, or a refusal.
export function onChat(msg) {
  const log = $("chat-log");
  if (msg.type === "chat") {
    if (!muted.has(msg.user_id)) log.append(line(msg));
  } else if (msg.type === "chat_history") {
    log.replaceChildren(...msg.messages.filter((m) => !muted.has(m.user_id)).map(line));
  } else if (msg.type === "mutes") {
    setMuted(msg.muted);
    return;
  } else if (msg.type === "error") {
    $("chat-error").textContent = msg.message;
    return;
  }
  $("chat-error").textContent = "";
  scroll();
}

export function isChat(msg) {
  return msg.type === "chat" || msg.type === "chat_history" || msg.type === "mutes" ||
    (msg.type === "error" && msg.about === "chat");
}
