// Telling a player it is their move: the tab's title ("Your turn"), a subtle sound (tile placed,
// your turn, hand over: on by default at a low volume, one toggle, remembered in this browser)
// and an opt-in browser notification while the tab is hidden. Browsers let a page sound only
// once the person has pressed something on it: the sound starts with the first press.
import { el } from "/static/api.js";

const SOUND_KEY = "boneyard-sound";
const NOTIFY_KEY = "boneyard-notify";
let audio = null;
let base = document.title;

function stored(key, fallback = false) {
  try {
    const v = localStorage.getItem(key);
    return v === null ? fallback : v === "on";
  } catch { return fallback; }
}

function store(key, on) {
  try { localStorage.setItem(key, on ? "on" : "off"); } catch { /* private mode: not kept */ }
}

export function soundOn() { return stored(SOUND_KEY, true); }

const VOLUME = 0.05; // (a tone's peak gain: subtle beside a page's other sounds)

// The page's audio, once the person has pressed something on it (before that a browser keeps
// it silent, and says so in the console).
function context() {
  const active = !navigator.userActivation || navigator.userActivation.hasBeenActive;
  if (!audio && active) {
    try { audio = new AudioContext(); } catch { audio = null; }
  }
  return audio;
}

// The first press on the page lets its sounds play (the browsers' autoplay rule).
function unlock() {
  if (soundOn() && context() && audio.state === "suspended") audio.resume();
}
for (const kind of ["pointerdown", "keydown"]) document.addEventListener(kind, unlock, { once: true, capture: true });

// Short tones made in the page (no sound files): a click, a two-note chime, three notes.
const TUNES = { place: [[520, 0.06]], turn: [[660, 0.12], [880, 0.16]], end: [[523, 0.14], [659, 0.14], [784, 0.24]] };

export function play(kind) {
  if (!soundOn() || !TUNES[kind] || !context()) return;
  document.body.dataset.sounds = `${document.body.dataset.sounds || ""} ${kind}`.trim(); // (what was heard, in order)
  try {
    let t = audio.currentTime;
    for (const [freq, len] of TUNES[kind]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(VOLUME, t);
      gain.gain.exponentialRampToValueAtTime(0.001, t + len);
      osc.connect(gain).connect(audio.destination);
      osc.start(t);
      osc.stop(t + len);
      t += len * 0.9;
    }
  } catch { /* no audio here */ }
}

// The header's two toggles: sound, and notifications (asks the browser's permission once).
export function initToggles(box) {
  if (!box) return;
  const sound = el("button", { id: "sound-toggle", type: "button", class: "toggle", "aria-pressed": String(soundOn()) });
  const showSound = () => {
    sound.textContent = soundOn() ? "Sound: on" : "Sound: off";
    sound.setAttribute("aria-pressed", String(soundOn()));
    sound.title = "Sounds for a tile placed, your turn and a hand's end";
  };
  sound.addEventListener("click", () => {
    store(SOUND_KEY, !soundOn());
    showSound();
    if (soundOn() && context()) { audio.resume(); play("place"); }
  });
  showSound();
  box.append(sound);
  if (!("Notification" in window)) return;
  const notify = el("button", { id: "notify-toggle", type: "button", class: "toggle" });
  const showNotify = () => {
    const on = stored(NOTIFY_KEY) && Notification.permission === "granted";
    notify.textContent = on ? "Alerts: on" : "Alerts: off";
    notify.setAttribute("aria-pressed", String(on));
    notify.title = "A browser notification when it is your move and this tab is hidden";
  };
  notify.addEventListener("click", async () => {
    if (stored(NOTIFY_KEY)) store(NOTIFY_KEY, false);
    else {
      const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
      store(NOTIFY_KEY, answer === "granted");
    }
    showNotify();
  });
  showNotify();
  box.append(notify);
}

let wasMine = false;

// Call with every view: the title says "Your turn" while it is, and the turn's start sounds
// and (tab hidden, alerts on) notifies once.
export function turnChanged(mine, title) {
  base = title || base;
  document.title = mine ? `▶ Your turn — ${base}` : base;
  if (mine && !wasMine) {
    play("turn");
    if (document.hidden && stored(NOTIFY_KEY) && "Notification" in window && Notification.permission === "granted") {
      try { new Notification("Your turn", { body: base, tag: "boneyard-turn" }); } catch { /* not allowed here */ }
    }
  }
  wasMine = mine;
}
