// The launch report: each check's dice as die faces, its sum against its target, and the report's lines.
import { h, s } from "./dom";
import { label } from "./labels";
import type { Check, Colour, State } from "./protocol";
import { COLOURS, SUIT } from "./suits";

const PIPS: Record<number, [number, number][]> = {
  1: [[2, 2]],
  2: [
    [1, 1],
    [3, 3],
  ],
  3: [
    [1, 1],
    [2, 2],
    [3, 3],
  ],
  4: [
    [1, 1],
    [3, 1],
    [1, 3],
    [3, 3],
  ],
  5: [
    [1, 1],
    [3, 1],
    [2, 2],
    [1, 3],
    [3, 3],
  ],
  6: [
    [1, 1],
    [3, 1],
    [1, 2],
    [3, 2],
    [1, 3],
    [3, 3],
  ],
};

/** A die showing `value`, drawn (no font needed); `roll` makes it tumble in. */
export function die(value: number, roll: boolean): SVGSVGElement {
  const face = s(
    "svg",
    { class: roll ? "die roll" : "die", viewBox: "0 0 24 24", role: "img", "aria-label": String(value) },
    s("rect", { x: 1, y: 1, width: 22, height: 22, rx: 5 }),
  );
  for (const [col, row] of PIPS[value] ?? []) {
    face.append(s("circle", { cx: col * 6, cy: row * 6, r: 2.6 }));
  }
  return face;
}

function isColour(name: string): name is Colour {
  return (COLOURS as readonly string[]).includes(name);
}

/** One part of a sum: the die as a face, a colour as its suit chip, Apophis by name. */
function part([name, value]: [string, number], roll: boolean): HTMLElement {
  if (name === "die") return h("span", { class: "part" }, die(value, roll));
  if (isColour(name)) return h("span", { class: `chip ${name}` }, `${SUIT[name]} ${value}`);
  const words = name.toLowerCase() === "apophis" ? label("apophis") : name;
  return h("span", { class: "part" }, `${words} ${value}`);
}

function verdict(check: Check): HTMLElement {
  if (check.success === null) return h("span", { class: "verdict skipped" }, "–");
  return h("span", { class: check.success ? "verdict ok" : "verdict short" }, check.success ? "✓" : "✗");
}

/** A check as `die + parts = total ≥ target ✓` (without a die: `total ≥ target`). */
function checkRow(check: Check, roll: boolean): HTMLElement {
  const sum = h("span", { class: "sum" });
  if (check.success !== null) {
    if (check.die !== null) {
      check.parts.forEach((p, i) => {
        if (i > 0) sum.append(" + ");
        sum.append(part(p, roll));
      });
      sum.append(" = ");
    }
    sum.append(h("b", null, check.total), ` ${check.below ? "<" : "≥"} ${check.target}`);
  }
  return h(
    "li",
    { class: "check" },
    h("span", { class: "step" }, label(`step_${check.step}`)),
    sum,
    verdict(check),
  );
}

/** The report's panel content, or null when there is none; `fresh` rolls the dice. */
export function report(state: State, fresh: boolean): HTMLElement[] | null {
  const told = state.report;
  if (!told) return null;
  return [
    h("h2", null, label("launch_checks")),
    h("ol", { class: "checks" }, ...told.checks.map((check) => checkRow(check, fresh))),
    h("ul", { class: "lines" }, ...told.lines.map((line) => h("li", null, line))),
  ];
}
