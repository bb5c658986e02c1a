// A menu behind a ☰ button in a page's header (the site's pages on a phone, the table's menu):
// the button opens and closes it; Escape (the focus goes back to the button), a press outside
// both, or a choice inside it closes it. `choices` are the presses inside that count as a choice
// (the table's menu stays open while its toggles are flipped).
export function bindMenu(button, menu, choices = "a") {
  const isOpen = () => menu.classList.contains("open");
  const show = (open) => {
    menu.classList.toggle("open", open);
    button.setAttribute("aria-expanded", String(open));
  };
  button.addEventListener("click", () => show(!isOpen()));
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && isOpen()) { show(false); button.focus(); }
  });
  document.addEventListener("pointerdown", (ev) => {
    if (isOpen() && !menu.contains(ev.target) && !button.contains(ev.target)) show(false);
  });
  menu.addEventListener("click", (ev) => { if (ev.target.closest(choices)) show(false); });
}
