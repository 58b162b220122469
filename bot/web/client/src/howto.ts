// How to play: the game in five short steps, each with a piece of the table's own picture.
import { h, s } from "./dom";
import { label } from "./labels";
import type { Colour, Piece } from "./protocol";
import { section } from "./table";
import { COLOURS, SUIT } from "./suits";

/** A small picture: `draw` fills an SVG of the given view box. */
function picture(width: number, height: number, ...children: SVGElement[]): SVGSVGElement {
  return s("svg", { class: "howto-picture", viewBox: `0 0 ${width} ${height}`, "aria-hidden": "true" }, ...children);
}

/** Apophis: three nested pyramids, its value in the middle. */
function asteroid(): SVGSVGElement {
  const sizes = [1, 0.78, 0.58];
  return picture(
    80,
    70,
    ...sizes.map((scale) =>
      s("polygon", {
        points: `${40 - 35 * scale},66 ${40 + 35 * scale},66 40,${66 - 62 * scale}`,
        class: "stone",
      }),
    ),
    s("text", { x: 40, y: 62, class: "big value-in", "text-anchor": "middle" }, 3),
  );
}

/** A rocket that can fly, as its words say: a large red, a medium yellow and a small blue
 * section, 6 points, 2 of them fuel (a quarter of 6 needs 2). */
function rocket(): SVGSVGElement {
  const pieces: Piece[] = [
    { colour: "red", size: 3 },
    { colour: "yellow", size: 2 },
    { colour: "blue", size: 1 },
  ];
  let bottom = 68;
  const parts = pieces.map((piece, i) => {
    const height = 14 + piece.size * 4;
    const drawn = section(piece, 45, bottom, height, i === pieces.length - 1, false);
    drawn.dataset.piece = `${piece.colour}.${piece.size}`; // what the tests weigh
    bottom -= height;
    return drawn;
  });
  return picture(90, 70, ...parts);
}

/** The launch sequence: one card of each suit. */
function slots(): SVGSVGElement {
  return picture(
    100,
    44,
    ...COLOURS.map((colour: Colour, i) =>
      s(
        "g",
        { class: `slot played ${colour}` },
        s("rect", { x: 4 + i * 24, y: 4, width: 20, height: 34, rx: 3 }),
        s("text", { x: 14 + i * 24, y: 26, "text-anchor": "middle" }, SUIT[colour]),
      ),
    ),
  );
}

/** A die showing six. */
function dieFace(): SVGSVGElement {
  const pips = [6, 18].flatMap((x) => [6, 12, 18].map((y) => s("circle", { cx: x, cy: y, r: 2.4 })));
  return picture(24, 24, s("rect", { x: 1, y: 1, width: 22, height: 22, rx: 5 }), ...pips);
}

const STEPS: [string, () => SVGSVGElement][] = [
  ["howto_goal", asteroid],
  ["howto_turn", slots],
  ["howto_build", rocket],
  ["howto_launch", dieFace],
];

/** The dialog, made once (the page places it); `open()` shows it (Escape or its button closes it). */
export class HowTo {
  readonly dialog = h("dialog", { class: "howto", "aria-labelledby": "howto-title" });

  constructor() {
    this.dialog.addEventListener("click", (event) => {
      if (event.target === this.dialog) this.dialog.close(); // a click beside the box
    });
  }

  open(): void {
    const close = h("button", { type: "button", class: "move primary", "data-action": "close" }, label("close"));
    close.addEventListener("click", () => this.dialog.close());
    this.dialog.replaceChildren(
      h("h2", { id: "howto-title", class: "screen-title" }, label("how_to_play")),
      h(
        "ol",
        { class: "howto-steps" },
        ...STEPS.map(([key, draw]) => h("li", null, draw(), h("p", null, label(key)))),
      ),
      h("p", { class: "muted" }, label("howto_more")),
      close,
    );
    this.dialog.showModal();
    close.focus();
  }
}
