// The table in SVG: Apophis, the rocket and its fuel check, the launch sequence, the depot, the piles.
import { put, s } from "./dom";
import { counted, label, upper } from "./labels";
import type { Colour, Piece, State, Table } from "./protocol";
import { COLOURS, DARK_INK, SUIT } from "./suits";

const WIDTH = 340;
const HEIGHT = 260;
const PAD_Y = 166; // the rocket stands on this line
const TOWER = 134; // the most height the rocket may take above it
const SECTION_WIDTH: Record<number, number> = { 1: 46, 2: 66, 3: 86 };
const SECTION_HEIGHT: Record<number, number> = { 1: 24, 2: 30, 3: 36 };
const DEPOT_ROWS = [
  { size: 3, base: 138, width: 22, height: 27 },
  { size: 2, base: 172, width: 17, height: 21 },
  { size: 1, base: 203, width: 13, height: 16 },
];
/** Apophis's three pyramids, largest first, at the scale of the board picture's. */
const PYRAMIDS = [
  { size: 3, scale: 1 },
  { size: 2, scale: 0.78 },
  { size: 1, scale: 0.58 },
];

/** What the previous drawing showed, to animate what changed. */
interface Shown {
  game: number | null;
  table: Table | null;
  rocket: number;
  sequence: Set<Colour>;
  checks: string;
  tower: SVGGElement | null;
}

export class TableView {
  readonly svg: SVGSVGElement;
  private readonly title = s("title", { id: "table-title" });
  private readonly board = s("g");
  private readonly effects = s("g", { class: "fx", "aria-hidden": "true" });
  private shown: Shown = { game: null, table: null, rocket: 0, sequence: new Set(), checks: "", tower: null };

  constructor() {
    this.svg = s(
      "svg",
      {
        class: "table",
        viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
        role: "img",
        "aria-labelledby": "table-title",
      },
      this.title,
      this.board,
      this.effects,
    );
  }

  /** Draw a game's table, animating sections placed, a launch and a scrap. */
  draw(state: State, table: Table): void {
    const before = this.shown.game === state.game ? this.shown : null;
    const checks = JSON.stringify(state.report?.checks ?? []);
    if (before?.tower && before.rocket > 0 && table.rocket.length < before.rocket) {
      const launched = checks !== before.checks && state.report !== null;
      this.leave(before.tower, launched ? "launching" : "scrapped");
    }
    const tower = rocket(table, before ? before.rocket : table.rocket.length);
    put(
      this.board,
      apophis(table, before?.table ?? null),
      panel(104, 0, 130, 214),
      heading(113, 20, label("rocket")),
      table.rocket.length > 0 &&
        s(
          "text",
          { x: 226, y: 20, class: "value", "text-anchor": "end" },
          `${table.points} ${label("points")}`,
        ),
      s("line", { x1: 116, x2: 222, y1: PAD_Y + 1.5, y2: PAD_Y + 1.5, class: "pad" }),
      tower,
      fuelCheck(table),
      sequence(table, before ? before.sequence : null),
      depot(table.depot),
      pile(0, label("deck"), table.deck),
      pile(173, label("discard"), table.discard),
    );
    this.shown = {
      game: state.game,
      table,
      rocket: table.rocket.length,
      sequence: new Set(table.sequence.map((card) => card.colour)),
      checks,
      tower,
    };
  }

  /** The words a screen reader gets for the picture (time left included). */
  describe(words: string): void {
    this.title.textContent = words;
  }

  /** A copy of the rocket that was, flying off (launch) or fading (scrap). */
  private leave(tower: SVGGElement, how: "launching" | "scrapped"): void {
    const ghost = tower.cloneNode(true) as SVGGElement;
    ghost.setAttribute("class", how);
    ghost.addEventListener("animationend", () => ghost.remove());
    this.effects.append(ghost);
    window.setTimeout(() => ghost.remove(), 2000); // when animations are off
  }
}

function panel(x: number, y: number, width: number, height: number): SVGRectElement {
  return s("rect", { x, y, width, height, rx: 8, class: "panel" });
}

function heading(x: number, y: number, text: string): SVGTextElement {
  return s("text", { x, y, class: "heading" }, upper(text));
}

function apophis(table: Table, before: Table | null): SVGGElement {
  const group = s("g", null, panel(0, 0, 98, 214), heading(9, 20, label("apophis")));
  for (const { size, scale } of PYRAMIDS) {
    const width = 70 * scale;
    const height = 74 * scale;
    const standing = size <= table.apophis;
    group.append(
      s("polygon", {
        points: `${49 - width / 2},106 ${49 + width / 2},106 49,${106 - height}`,
        class: standing ? "stone" : "ghost",
      }),
    );
  }
  group.append(
    s(
      "text",
      { x: 49, y: 101, class: table.apophis > 0 ? "big value-in" : "big", "text-anchor": "middle" },
      table.apophis,
    ),
    s(
      "text",
      { x: 9, y: 130, class: "small" },
      `${label("damage")} ${table.damage}/${table.damage_to_destroy}`,
    ),
    marks(144, table.damage_to_destroy, table.damage, "hurt", before?.damage ?? table.damage),
  );
  if (table.rules === "basic") {
    group.append(
      s(
        "text",
        { x: 9, y: 172, class: "small" },
        `${label("deflection")} ${table.counters}/${table.counters_to_deflect}`,
      ),
      marks(186, table.counters_to_deflect, table.counters, "counter", before?.counters ?? table.counters),
    );
  }
  return group;
}

/** A row of `count` dots, the first `filled` of them marked (those from `before` on, just
 * now: they light up once the launch has been told). */
function marks(y: number, count: number, filled: number, kind: string, before: number): SVGGElement {
  const group = s("g");
  for (let i = 0; i < count; i++) {
    const lit = i < filled ? (i >= before ? `${kind} lit` : kind) : "empty";
    group.append(s("circle", { cx: 15 + i * 17, cy: y, r: 6.5, class: lit }));
  }
  return group;
}

/** The rocket bottom first, squeezed to fit when tall; sections from `placedFrom` on arrive. */
function rocket(table: Table, placedFrom: number): SVGGElement {
  const group = s("g", { class: "tower" });
  const total = table.rocket.reduce((sum, piece) => sum + SECTION_HEIGHT[piece.size], 0);
  const squeeze = Math.min(1, TOWER / Math.max(total, 1));
  let bottom = PAD_Y;
  table.rocket.forEach((piece, index) => {
    const height = SECTION_HEIGHT[piece.size] * squeeze;
    const top = bottom - height;
    const nose = index === table.rocket.length - 1;
    group.append(section(piece, 169, bottom, height, nose, index >= placedFrom));
    bottom = top;
  });
  if (table.rocket.length === 0) {
    group.append(s("text", { x: 169, y: 110, class: "muted", "text-anchor": "middle" }, label("no_rocket")));
  }
  return group;
}

/** One section: a frustum (the top one a cone) in its colour, its suit and size in dots. */
export function section(
  piece: Piece,
  cx: number,
  bottom: number,
  height: number,
  nose: boolean,
  placed: boolean,
): SVGGElement {
  const half = SECTION_WIDTH[piece.size] / 2;
  const topHalf = nose ? 0 : half * 0.72;
  const top = bottom - height;
  const ink = DARK_INK[piece.colour] ? "ink-dark" : "ink-light";
  const middle = bottom - height / 2;
  const group = s(
    "g",
    { class: placed ? "section placed" : "section" },
    s("polygon", {
      points: `${cx - half},${bottom} ${cx + half},${bottom} ${cx + topHalf},${top} ${cx - topHalf},${top}`,
      class: `piece ${piece.colour}`,
    }),
  );
  if (nose) {
    const y = bottom - Math.min(7, height / 5);
    group.append(s("text", { x: cx, y, class: `glyph ${ink}`, "text-anchor": "middle" }, SUIT[piece.colour]));
    return group;
  }
  const left = cx - (12 + 7 * piece.size) / 2; // the suit, then one dot a size step
  group.append(
    s(
      "text",
      { x: left + 5, y: middle + 5, class: `glyph ${ink}`, "text-anchor": "middle" },
      SUIT[piece.colour],
    ),
  );
  for (let i = 0; i < piece.size; i++) {
    group.append(s("circle", { cx: left + 16 + i * 7, cy: middle, r: 2.4, class: ink }));
  }
  return group;
}

/** Whether the rocket, as it stands, would fail its fuel check if launched (false: no rocket). */
export function fuelShort(table: Table): boolean {
  return table.rocket.length > 0 && table.fuel < table.fuel_needed;
}

/** The fuel check under the pad: what it needs, then the fuel there and ✓ or ✗, large. */
function fuelCheck(table: Table): SVGGElement | false {
  if (table.rocket.length === 0) return false;
  const ok = !fuelShort(table);
  return s(
    "g",
    { class: ok ? "fuel ok" : "fuel short" },
    s(
      "text",
      { x: 169, y: 186, class: "small", "text-anchor": "middle" },
      label("fuel_needs", { needed: table.fuel_needed }),
    ),
    s(
      "text",
      { x: 169, y: 207, class: "fuel-value", "text-anchor": "middle" },
      `${table.fuel} ${ok ? "✓" : "✗"}`,
    ),
  );
}

/** Four slots, one a colour: played (filled), still needed by the rocket (outlined) or not. */
export function sequence(table: Table, before: Set<Colour> | null): SVGGElement {
  const played = new Set(table.sequence.map((card) => card.colour));
  const needed = table.rocket.length > 0; // a launch needs one card of every suit
  const group = s("g", null, panel(240, 0, 100, 70), heading(248, 18, label("sequence")));
  COLOURS.forEach((colour, i) => {
    const x = 246 + i * 23;
    const state = played.has(colour) ? "played" : needed ? "needed" : "unused";
    const fresh = played.has(colour) && before !== null && !before.has(colour);
    group.append(
      s(
        "g",
        { class: fresh ? `slot ${state} ${colour} placed` : `slot ${state} ${colour}` },
        s("title", null, label(`slot_${state}`, { suit: SUIT[colour] })),
        s("rect", { x, y: 24, width: 20, height: 28, rx: 3 }),
        s("text", { x: x + 10, y: 43, "text-anchor": "middle" }, SUIT[colour]),
      ),
    );
  });
  if (needed) {
    const placed = played.size;
    group.append(
      s(
        "text",
        { x: 290, y: 64, class: "tiny", "text-anchor": "middle" },
        counted("slots_count", placed, { needed: COLOURS.length - placed }),
      ),
    );
  }
  return group;
}

/** The twelve pieces by colour and size: those in the depot solid, the others ghosts. */
function depot(pieces: Piece[]): SVGGElement {
  const here = new Set(pieces.map((piece) => `${piece.colour}${piece.size}`));
  const group = s("g", null, panel(240, 76, 100, 138), heading(248, 96, label("depot")));
  COLOURS.forEach((colour, i) => {
    const cx = 256 + i * 23; // under its colour's sequence slot
    for (const row of DEPOT_ROWS) {
      const present = here.has(`${colour}${row.size}`);
      const half = row.width / 2;
      group.append(
        s("polygon", {
          points: `${cx - half},${row.base} ${cx + half},${row.base} ${cx},${row.base - row.height}`,
          class: present ? `piece ${colour}` : "ghost",
        }),
      );
    }
  });
  return group;
}

function pile(x: number, name: string, count: number): SVGGElement {
  return s(
    "g",
    null,
    panel(x, 220, 167, 40),
    s("rect", { x: x + 10, y: 228, width: 17, height: 24, rx: 3, class: "card-back" }),
    s("text", { x: x + 36, y: 246, class: "small" }, name),
    s("text", { x: x + 157, y: 247, class: "value big-ish", "text-anchor": "end" }, count),
  );
}
