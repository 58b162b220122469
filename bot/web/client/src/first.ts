// A newcomer's first game: the rocket that can launch (bot/pictures/first_rocket.py's, drawn by the page), its words, closed once read.
import "./first.css";
import { h, s } from "./dom";
import { label } from "./labels";
import type { Colour, First, Piece } from "./protocol";
import { section } from "./table";
import { COLOURS, SUIT } from "./suits";

/** The rocket, bottom first: a large red, a medium yellow and a medium blue, 7 points, 2 of
 * them fuel (a quarter of 7 needs 2); three suits of its launch sequence played, green to go. */
const ROCKET: Piece[] = [
  { colour: "red", size: 3 },
  { colour: "yellow", size: 2 },
  { colour: "blue", size: 2 },
];
const PLAYED: Colour[] = ["red", "blue", "yellow"];

/** The picture: the rocket beside its launch sequence; `alt`, it in words. */
function picture(alt: string): SVGSVGElement {
  let bottom = 92;
  const rocket = ROCKET.map((piece, i) => {
    const height = 16 + piece.size * 5;
    const drawn = section(piece, 40, bottom, height, i === ROCKET.length - 1, false);
    drawn.dataset.piece = `${piece.colour}.${piece.size}`; // what the tests weigh
    bottom -= height;
    return drawn;
  });
  const slots = COLOURS.map((colour, i) => {
    const state = PLAYED.includes(colour) ? "played" : "needed";
    return s(
      "g",
      { class: `slot ${state} ${colour}`, "data-slot": state },
      s("rect", { x: 92 + i * 26, y: 40, width: 22, height: 34, rx: 3 }),
      s("text", { x: 103 + i * 26, y: 62, "text-anchor": "middle" }, SUIT[colour]),
    );
  });
  return s(
    "svg",
    { class: "first-picture", viewBox: "0 0 200 100", role: "img", "aria-label": alt },
    ...rocket,
    ...slots,
  );
}

/** The welcome for a newcomer, once: the picture, its line, and Got it (`closed`: it is read). */
export function firstRocket(first: First | undefined, closed: () => void): HTMLElement | null {
  if (!first) return null;
  const close = h("button", { type: "button", class: "move primary", "data-action": "first-close" }, label("first_close"));
  const box = h(
    "section",
    { class: "first-rocket", "aria-label": first.alt },
    picture(first.alt),
    h("div", { class: "first-words" }, h("p", null, first.line), close),
  );
  close.addEventListener("click", () => {
    box.remove();
    closed();
  });
  return box;
}
