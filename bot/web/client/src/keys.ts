// Keyboard shortcuts: D draw, S scrap, L launch, H hint, 1–9 the Nth build (never while typing).
import type { Moves } from "./hand";

const SHORTCUTS = /^[dslh1-9]$/;

function typing(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName))
  );
}

export function listenForShortcuts(moves: Moves): void {
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.altKey || event.metaKey || event.repeat || typing(event.target)) return;
    const key = event.key.toLowerCase();
    if (!SHORTCUTS.test(key)) return;
    const button = moves.forKey(key);
    if (!button) return;
    event.preventDefault();
    button.focus();
    button.click();
  });
}
