// The launch as an event: each check rolls its die in turn, its sum against its target, its verdict in words.
import { h, put, s } from "./dom";
import { label } from "./labels";
import type { Check, Colour, State } from "./protocol";
import { COLOURS, SUIT } from "./suits";
import { cancel, later } from "./timers";

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

/** How long each check takes to roll and settle, in milliseconds. */
const STEP_MS = 900;
/** The colour whose points each part of a sum counts. */
const PART_COLOUR: Record<string, Colour> = { "booster fuel": "yellow", guidance: "blue" };

export function reducedMotion(): boolean {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** A die showing `value`, drawn (no font needed). */
export function die(value: number): SVGSVGElement {
  const face = s(
    "svg",
    { class: "die", viewBox: "0 0 24 24", role: "img", "aria-label": label("die_shows", { value }) },
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

/** One part of a sum: the die as a face, any other as its name and value (a suit chip where it counts a colour). */
function part(step: string, [name, value, words]: [string, number, string]): HTMLElement {
  if (name === "die") return h("span", { class: "part" }, die(value));
  const colour = name === "warheads" ? (step === "damage" ? "red" : "green") : PART_COLOUR[name];
  return h(
    "span",
    { class: colour && isColour(colour) ? `part chip ${colour}` : "part" },
    colour && h("span", { "aria-hidden": "true" }, `${SUIT[colour]} `),
    `${words} ${value}`,
  );
}

/** A check as `die + parts = total`, its target, and its verdict in words. */
function checkRow(check: Check): HTMLElement {
  const sum = h("span", { class: "sum" });
  if (check.success !== null) {
    const shown = check.die !== null ? check.parts : check.parts.slice(0, 1);
    shown.forEach((p, i) => {
      if (i > 0) sum.append(" + ");
      sum.append(part(check.step, p));
    });
    if (check.die !== null) sum.append(" = ", h("b", null, check.total));
    sum.append(
      " ",
      h(
        "span",
        { class: "target" },
        label(check.below ? "target_below" : "target_at_least", { target: check.target }),
      ),
    );
  }
  const ok = check.success === null ? "skipped" : check.success ? "ok" : "short";
  return h(
    "li",
    { class: "check" },
    h("span", { class: "step" }, label(`step_${check.step}`)),
    sum,
    h(
      "span",
      { class: `verdict ${ok}` },
      h("span", { "aria-hidden": "true" }, check.success === null ? "– " : check.success ? "✓ " : "✗ "),
      check.verdict,
    ),
  );
}

/** The launch report's panel: played check by check when fresh, all at once otherwise. */
export class LaunchReport {
  readonly root = h("section", {
    class: "report",
    hidden: true,
    tabindex: -1,
    "aria-labelledby": "report-title",
  });
  private timers: number[] = [];
  private key = "";
  /** Called once a launch's show is over: what it told may be said elsewhere now. */
  onDone: (() => void) | null = null;

  /** Whether a launch is being shown check by check (its dice still rolling). */
  get playing(): boolean {
    return this.timers.length > 0;
  }

  /** Show the state's report; a launch not seen before plays (unless motion is unwanted),
   * scrolled into view (on a phone the report is below the hand). */
  draw(state: State, seenBefore: boolean): void {
    const told = state.report;
    const key = JSON.stringify(told?.checks ?? null);
    const fresh = seenBefore && key !== this.key && told !== null && told.checks.length > 0;
    this.key = key;
    if (!told) {
      this.stop();
      this.root.hidden = true;
      return;
    }
    if (!fresh && this.timers.length > 0) return; // a show under way goes on
    this.root.hidden = false;
    const rows = told.checks.map(checkRow);
    const lines = h(
      "details",
      { class: "full-report" },
      h("summary", null, label("full_report")),
      h("ul", { class: "lines" }, ...told.lines.map((line) => h("li", null, line))),
    );
    const skip = h("button", { type: "button", class: "move secondary skip", "data-action": "skip" }, label("skip"));
    put(
      this.root,
      h("h2", { id: "report-title" }, label(fresh ? "launch_now" : "launch_checks")),
      h("ol", { class: "checks" }, ...rows),
      lines,
      told.open && h("p", { class: "muted" }, label("reroll_open")),
      fresh && skip,
    );
    this.stop();
    if (!fresh || reducedMotion()) {
      skip.remove();
      return;
    }
    this.root.scrollIntoView({ block: "nearest", behavior: "smooth" });
    this.root.classList.add("playing");
    rows.forEach((row) => row.classList.add("pending"));
    lines.classList.add("pending");
    const reveal = (i: number): void => {
      if (i < rows.length) {
        rows[i].classList.remove("pending");
        rows[i].classList.add("rolling");
      } else this.finish(rows, lines, skip);
    };
    rows.forEach((_, i) => this.timers.push(later(() => reveal(i), i * STEP_MS)));
    this.timers.push(later(() => reveal(rows.length), rows.length * STEP_MS));
    skip.addEventListener("click", () => this.finish(rows, lines, skip));
  }

  private finish(rows: HTMLElement[], lines: HTMLElement, skip: HTMLElement): void {
    this.stop();
    for (const row of rows) row.classList.remove("pending");
    lines.classList.remove("pending");
    this.root.classList.remove("playing");
    if (skip.contains(document.activeElement)) this.root.focus();
    skip.remove();
    this.onDone?.();
  }

  private stop(): void {
    for (const timer of this.timers) cancel(timer);
    this.timers = [];
  }
}
