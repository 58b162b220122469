// Your hand as cards grouped by colour, and the moves: Discord's buttons and card pickers as real controls.
import { h, put } from "./dom";
import { counted, label } from "./labels";
import type { Button, Card, Component, Select, SelectOption } from "./protocol";
import { COLOURS, colourOfCard, colourOfEmoji, SUIT } from "./suits";

/** Sends one move: a component's custom id, and the values chosen in a picker. */
export type Send = (customId: string, values?: string[]) => void;

/** Discord's button styles: primary, secondary, success, danger. */
const STYLE = ["", "primary", "secondary", "success", "danger"];

/** The panel's emoji in symbols of the bot's own font (emoji fonts differ, or are missing). */
const SYMBOL: Record<string, string> = {
  "🃏": "✚",
  "🚀": "▲",
  "♻️": "♻",
  "💡": "?",
  "🔄": "↻",
  "🔁": "↻",
  "🛟": "↺",
  "✔️": "✔",
  "🗑️": "✖",
  "🏗️": "▦",
  "👁️": "◉",
  "📖": "¶",
};

/** A move's look: Discord's style, except where the rocket is short of fuel: then its launch
 * would fail and is shown as a warning, and the largest build of yellow (fuel) offered is
 * the main move (`fuel`, its custom id). */
function look(item: Button, action: string, fuelShort: boolean, fuel: string | null): string {
  if (fuelShort && action === "launch") return "warning";
  if (item.custom_id === fuel) return "success main";
  return STYLE[item.style] ?? "secondary";
}

/** The custom id of the build adding the most fuel among `components` (null: none). */
function mostFuel(components: (Component | null)[]): string | null {
  const builds = components
    .flatMap((item) => (item?.type === 1 ? item.components : [item]))
    .filter((item): item is Button => item?.type === 2 && actionOf(item.custom_id) === "build")
    .filter((item) => colourOfEmoji(item.emoji?.name) === "yellow");
  const size = (item: Button): number => Number(item.custom_id.split(".").pop());
  return builds.reduce<Button | null>((best, item) => (best && size(best) >= size(item) ? best : item), null)
    ?.custom_id ?? null;
}

/** A label as its parts: a build's section, then what it makes ("→ 3 points, fuel 1…"),
 * each kept whole where the line allows (a label too long for one line breaks between). */
function parts(text: string): (HTMLElement | string)[] {
  const at = text.indexOf(" → ");
  if (at < 0) return [text];
  return [h("span", { class: "part" }, text.slice(0, at)), " ", h("span", { class: "part" }, text.slice(at + 1))];
}

/** Keyboard shortcuts by the move's action (the custom id's fifth part). */
const KEYS: Record<string, string> = { draw: "d", scrap: "s", launch: "l", hint: "h" };

/** "apo:h:12:34:draw:7H.2D" → "draw". */
export function actionOf(customId: string): string {
  return customId.split(":")[4] ?? "";
}

/** A move's identity across versions (kind, action and argument), to keep focus and picks. */
function identity(customId: string): string {
  const [, kind, , , ...rest] = customId.split(":");
  return [kind, ...rest].join(":");
}

/** The hand, grouped by colour in the order given (the server sorts it). */
export function hand(cards: Card[]): HTMLElement {
  if (cards.length === 0) return h("p", { class: "muted" }, label("no_cards"));
  const groups = COLOURS.map((colour) => cards.filter((card) => card.colour === colour)).filter(
    (group) => group.length > 0,
  );
  return h(
    "div",
    { class: "hand" },
    ...groups.map((group) =>
      h(
        "ul",
        { class: "cards" },
        ...group.map((card) => h("li", { class: `card ${card.colour}` }, card.label)),
      ),
    ),
  );
}

/** True when a picker among the moves offers every card of the hand (then it shows the hand). */
export function pickerShowsHand(moves: (Component | null)[], cards: Card[]): boolean {
  const offered = new Set(
    moves.flatMap((item) => (item?.type === 3 ? item.options.map((option) => option.value) : [])),
  );
  return cards.length > 0 && cards.every((card) => offered.has(card.card));
}

/** Whether the page is a phone's: long lists of moves fold there, behind their name. */
const PHONE = window.matchMedia("(max-width: 520px)");
function narrow(): boolean {
  return PHONE.matches;
}

/** Which folds were opened or closed by hand, kept while states come and go. */
const opened = new Map<string, boolean>();

/** A fold as it should be now: open on a wider screen, on a phone as its player left it
 * (at first, open only if it holds the main move). */
function unfold(box: HTMLDetailsElement, key: string): void {
  box.open = narrow() ? (opened.get(key) ?? box.querySelector(".main") !== null) : true;
}

// A phone turned, a window narrowed: the folds follow.
PHONE.addEventListener("change", () => {
  document.querySelectorAll<HTMLDetailsElement>("details.fold").forEach((box) => unfold(box, box.dataset.fold ?? ""));
});

/** A group of moves that folds on a phone (the builds, a card picker): open on a wider
 * screen, where its summary is not shown; on a phone as its player left it. */
function fold(key: string, summary: string, content: HTMLElement): HTMLElement {
  const box = h("details", { class: `fold ${key}`, "data-fold": key }, h("summary", null, summary), content);
  unfold(box, key);
  box.addEventListener("toggle", () => {
    if (narrow()) opened.set(key, box.open);
  });
  return box;
}

/** The picks in progress, by picker, kept while states come and go. */
const picks = new Map<string, Set<string>>();

export class Moves {
  readonly root = h("div", { class: "moves" });
  private busy = false;
  private why: string | null = null;
  private fuelShort = false;
  private fuel: string | null = null;

  /** Draw the moves (those that cannot work now stay focusable, saying `why`; with
   * `fuelShort`, a launch would fail its fuel check); the focused control is found again
   * after the redraw. */
  draw(
    components: (Component | null)[],
    cards: Card[],
    enabled: boolean,
    why: string | null,
    send: Send,
    fuelShort = false,
  ): void {
    this.why = why;
    this.fuelShort = fuelShort;
    this.fuel = fuelShort ? mostFuel(components) : null;
    const focused = (document.activeElement as HTMLElement | null)?.dataset.move;
    this.busy = false;
    const rows: HTMLElement[] = [];
    let row = h("div", { class: "row" });
    const flush = (): void => {
      if (row.childElementCount > 0) {
        const count = row.childElementCount;
        rows.push(row.classList.contains("builds") ? fold("builds", counted("build_choices", count), row) : row);
      }
      row = h("div", { class: "row" });
    };
    let builds = 0;
    const place = (item: Component | null): void => {
      if (item === null)
        flush(); // the panel's row break
      else if (item.type === 1) {
        flush();
        item.components.forEach(place);
        flush();
      } else if (item.type === 2) {
        const action = actionOf(item.custom_id);
        const building = row.classList.contains("builds");
        if (action === "build" && !building) {
          flush();
          row.classList.add("builds"); // each build on a line of its own: their labels are long
        } else if (action !== "build" && building) flush();
        const key = action === "build" ? (++builds <= 9 ? String(builds) : null) : (KEYS[action] ?? null);
        row.append(this.button(item, key, enabled, send));
      } else {
        flush();
        rows.push(fold("picker", item.placeholder ?? label("pick_cards"), this.picker(item, cards, enabled, send)));
      }
    };
    components.forEach(place);
    flush();
    put(this.root, ...rows);
    const again = focused && this.root.querySelector<HTMLElement>(`[data-move="${CSS.escape(focused)}"]`);
    if (again) again.focus();
  }

  /** The button for a shortcut key (the first launch, the Nth build), if it can be pressed. */
  forKey(key: string): HTMLButtonElement | null {
    const found = this.root.querySelector<HTMLButtonElement>(`button[data-key="${CSS.escape(key)}"]`);
    return found && !found.disabled && found.getAttribute("aria-disabled") !== "true" ? found : null;
  }

  private button(item: Button, key: string | null, enabled: boolean, send: Send): HTMLButtonElement {
    const action = actionOf(item.custom_id);
    const emoji = item.emoji?.name;
    const colour = colourOfEmoji(emoji);
    const icon = colour
      ? h("span", { class: `swatch ${colour}`, "aria-hidden": "true" }, SUIT[colour])
      : emoji && h("span", { class: "icon", "aria-hidden": "true" }, SYMBOL[emoji] ?? emoji);
    const shortcut = key && (KEYS[action] === key ? key.toUpperCase() : key);
    const off = Boolean(item.disabled) || !enabled;
    const reason = off ? this.why : null;
    const button = h(
      "button",
      {
        type: "button",
        class: `move ${look(item, action, this.fuelShort, this.fuel)}`,
        "data-move": identity(item.custom_id),
        "data-action": action,
        "data-key": key,
        "aria-keyshortcuts": shortcut || null,
        "aria-disabled": off ? "true" : null,
        title: reason ? `${item.label} — ${reason}` : shortcut ? `${item.label} (${shortcut})` : item.label,
      },
      icon,
      h("span", { class: "text" }, ...parts(item.label)),
      shortcut && h("kbd", { "aria-hidden": "true" }, shortcut),
      reason && h("span", { class: "sr-only" }, ` (${reason})`),
    );
    button.addEventListener("click", () => {
      if (off) {
        if (reason) this.onRefused?.(reason);
        return;
      }
      this.once(() => send(item.custom_id));
    });
    return button;
  }

  /** A select as a card picker: a toggle per option, within its bounds, then Send. */
  private picker(item: Select, cards: Card[], enabled: boolean, send: Send): HTMLElement {
    const min = item.min_values ?? 1;
    const max = item.max_values ?? 1;
    const id = identity(item.custom_id);
    const chosen = new Set([...(picks.get(id) ?? [])].filter((v) => item.options.some((o) => o.value === v)));
    picks.set(id, chosen);
    const count = h("span", { class: "count" });
    const confirm = h(
      "button",
      { type: "button", class: "move primary", "data-move": `${id}:send` },
      label("send"),
    );
    const toggles = new Map<string, HTMLButtonElement>();
    const refresh = (): void => {
      count.textContent = `${chosen.size}/${max}`;
      confirm.disabled = !enabled || chosen.size < min || chosen.size > max;
      for (const [value, toggle] of toggles) {
        const on = chosen.has(value);
        toggle.setAttribute("aria-pressed", String(on));
        toggle.disabled = !enabled || (!on && max > 1 && chosen.size >= max);
      }
    };
    for (const option of item.options) {
      const toggle = pickable(option, cards, id);
      toggle.addEventListener("click", () => {
        if (chosen.has(option.value)) chosen.delete(option.value);
        else {
          if (max === 1) chosen.clear();
          chosen.add(option.value);
        }
        refresh();
      });
      toggles.set(option.value, toggle);
    }
    confirm.addEventListener("click", () =>
      this.once(() => {
        picks.delete(id);
        send(item.custom_id, [...chosen]);
      }),
    );
    refresh();
    return h(
      "fieldset",
      { class: "picker" },
      h("legend", null, item.placeholder ?? label("pick_cards")),
      h("div", { class: "options" }, ...toggles.values()),
      h("div", { class: "confirm" }, confirm, count),
    );
  }

  /** Told why a move that is off cannot be made, when it is pressed anyway. */
  onRefused: ((reason: string) => void) | null = null;

  /** One click, one move: every control waits for the answer (the next draw). */
  private once(act: () => void): void {
    if (this.busy) return;
    this.busy = true;
    for (const control of this.root.querySelectorAll("button")) control.disabled = true;
    act();
  }
}

/** A picker's option as a card that toggles, coloured by its card (or its emoji). */
function pickable(option: SelectOption, cards: Card[], picker: string): HTMLButtonElement {
  const colour =
    cards.find((card) => card.card === option.value)?.colour ??
    colourOfCard(option.value) ??
    colourOfEmoji(option.emoji?.name);
  return h(
    "button",
    {
      type: "button",
      class: colour ? `card toggle ${colour}` : "card toggle",
      "data-move": `${picker}:${option.value}`,
      title: option.description ?? null,
    },
    option.label,
  );
}
