// The page: lays out the table, the seats, your hand and moves, the report and the news, from each state.
import { report } from "./checks";
import { mmss, setClock, tick, timeLeft } from "./clock";
import { h, put } from "./dom";
import { hand, Moves, pickerShowsHand } from "./hand";
import { listenForShortcuts } from "./keys";
import { label, setLabels } from "./labels";
import type { Link } from "./socket";
import type { Result, Seat, State, User, Welcome } from "./protocol";
import { TableView } from "./table";

/** Sends a move chosen on a state's version; false when it could not leave (no socket). */
export type MoveSender = (version: number, customId: string, values?: string[]) => boolean;

/** What tests read: how many states came, the last one, whether the socket is open. */
interface TestHook {
  states: number;
  lastState: State | null;
  socketOpen: boolean;
}

declare global {
  interface Window {
    __apophis: TestHook;
  }
}

/** A note stays at least this long, longer when it is long (a hint). */
const NOTE_SECONDS = 6;
const NOTE_CHARACTERS_A_SECOND = 15;

export class View {
  private readonly hook: TestHook = { states: 0, lastState: null, socketOpen: false };
  private readonly title = h("h1", { class: "sr-only" }, label("title"));
  private readonly time = h("span", { class: "time" });
  private readonly timeLabel = h("span", { class: "time-label" });
  private readonly clock = h(
    "div",
    { class: "clock", role: "timer", hidden: true },
    this.time,
    this.timeLabel,
  );
  private readonly next = h("p", { class: "next" });
  private readonly linkLine = h("span", { class: "link", hidden: true });
  private readonly table = new TableView();
  private readonly board = h("section", { class: "board" });
  private readonly mine = h("section", { class: "mine" });
  private readonly players = h("section", { class: "players" });
  private readonly told = h("section", { class: "report", hidden: true });
  private readonly recent = h("section", { class: "recent", hidden: true });
  private readonly toast = h("p", { class: "toast", hidden: true });
  private readonly announcer = h("div", { class: "sr-only", "aria-live": "polite" });
  private readonly moves = new Moves();
  private readonly lobbyMoves = new Moves();
  private state: State | null = null;
  private user: User | null = null;
  private signIn: string | null = null;
  private open = false;
  private toastTimer = 0;
  private checksKey = "";

  constructor(private readonly sendMove: MoveSender) {
    window.__apophis = this.hook;
    put(
      document.body,
      h("header", { class: "bar" }, this.title, this.clock, this.next, this.linkLine),
      h("main", null, this.board, this.mine, this.players, this.told, this.recent),
      this.toast,
      this.announcer,
    );
    put(this.board, h("p", { class: "waiting" }, label("connecting")));
    this.toast.addEventListener("click", () => (this.toast.hidden = true));
    listenForShortcuts(this.moves);
    tick(() => this.showTime());
  }

  /** The connection's state, shown in the bar when it is not simply open. */
  link(link: Link): void {
    this.open = link === "open";
    this.hook.socketOpen = this.open;
    this.linkLine.hidden = this.open;
    this.linkLine.textContent = label(link);
    this.linkLine.className = `link ${link}`;
    if (this.state) this.drawMoves(this.state);
  }

  /** Who is signed in, and where a browser page signs in (offered while nobody is; null in Discord). */
  identity(user: User | null, signIn: string | null): void {
    this.user = user;
    this.signIn = signIn;
    if (this.state) this.drawMine(this.state);
  }

  welcome(message: Welcome): void {
    setLabels(message.labels, message.language);
    this.title.textContent = label("title");
    this.identity(message.user, this.signIn);
  }

  render(state: State): void {
    const previous = this.state;
    this.state = state;
    this.hook.states += 1;
    this.hook.lastState = state;
    document.body.dataset.version = String(state.version);
    document.body.dataset.status = state.status;
    setClock(state);
    if (state.texts.next && state.texts.next !== previous?.texts.next) this.announce(state.texts.next);
    if (state.texts.result && state.texts.result !== previous?.texts.result)
      this.announce(state.texts.result);
    this.next.textContent = state.texts.next ?? label(state.status === "lobby" ? "lobby" : "title");
    this.next.classList.toggle("yours", Boolean(state.you?.your_turn));
    this.drawBoard(state);
    this.drawMine(state);
    this.drawMoves(state);
    this.drawReport(state, previous !== null);
    this.drawRecent(state);
    this.showTime();
  }

  /** No channel to watch (a page opened without one). */
  nothingToWatch(): void {
    document.body.dataset.status = "none";
    put(this.board, h("p", { class: "waiting" }, label("no_game")));
  }

  /** The answer to one of our moves (refused or not), and the moves again. */
  result(message: Result): void {
    this.note(message.note);
    if (this.state) this.drawMoves(this.state);
  }

  /** A note for everyone: on screen a few seconds, and read out. */
  note(text: string): void {
    this.toast.textContent = text;
    this.toast.hidden = false;
    window.clearTimeout(this.toastTimer);
    const seconds = Math.max(NOTE_SECONDS, text.length / NOTE_CHARACTERS_A_SECOND);
    this.toastTimer = window.setTimeout(() => (this.toast.hidden = true), seconds * 1000);
    this.announce(text);
  }

  private announce(text: string): void {
    this.announcer.textContent = "";
    window.requestAnimationFrame(() => (this.announcer.textContent = text));
  }

  private send(state: State, customId: string, values?: string[]): void {
    if (!this.sendMove(state.version, customId, values)) {
      this.note(label("offline"));
      this.drawMoves(state);
    }
  }

  private drawBoard(state: State): void {
    if (state.status === "none") {
      put(this.board, h("p", { class: "waiting" }, label("no_game")));
      put(this.players);
      return;
    }
    const parts: (Node | false)[] = [];
    if (state.texts.result) {
      parts.push(
        h("div", { class: "outcome" }, h("h2", null, label("game_over")), h("p", null, state.texts.result)),
      );
    }
    if (state.table) {
      this.table.draw(state, state.table);
      parts.push(this.table.svg);
      if (state.texts.rocket) {
        const ok = state.table.fuel >= state.table.fuel_needed;
        parts.push(h("p", { class: ok ? "rocket-line ok" : "rocket-line short" }, state.texts.rocket));
      }
    } else if (state.settings) {
      parts.push(h("p", { class: "settings" }, settingsLine(state.settings)));
    }
    // The seats come after your hand on a phone (your moves within reach), beside the table
    // on a wide screen.
    put(this.players, seats(state.seats));
    if (state.lobby_moves.length > 0) parts.push(this.lobbyMoves.root);
    if (state.status === "lobby" && state.host !== this.user?.id) {
      parts.push(h("p", { class: "muted" }, label("waiting_for_host")));
    }
    put(this.board, ...parts);
  }

  private drawMine(state: State): void {
    const you = state.you;
    const who = h("p", { class: "who" });
    if (this.user) who.append(label("signed_in_as", { name: this.user.name }));
    if (!you?.seated) who.append(this.user ? " · " : "", label("watching"));
    if (!this.user && this.signIn) {
      who.append(" · ", h("a", { href: this.signIn, class: "sign-in" }, label("sign_in")));
    }
    if (!you?.seated || state.table === null) {
      put(this.mine, who);
      return;
    }
    put(
      this.mine,
      who,
      h(
        "h2",
        null,
        label("your_hand"),
        " ",
        h("span", { class: "count" }, `(${you.hand.length})`),
        you.your_turn && h("span", { class: "badge turn" }, label("your_turn")),
      ),
      you.situation && h("p", { class: "situation" }, you.situation),
      !pickerShowsHand(you.moves, you.hand) && hand(you.hand),
      you.moves.length > 0 && h("h2", { class: "sr-only" }, label("moves")),
      this.moves.root,
    );
  }

  private drawMoves(state: State): void {
    const send = (id: string, values?: string[]): void => this.send(state, id, values);
    this.moves.draw(state.you?.moves ?? [], state.you?.hand ?? [], this.open, send);
    this.lobbyMoves.draw(state.lobby_moves, [], this.open, send);
  }

  private drawReport(state: State, seenBefore: boolean): void {
    const key = JSON.stringify(state.report?.checks ?? null);
    const fresh = seenBefore && key !== this.checksKey;
    this.checksKey = key;
    const content = report(state, fresh);
    this.told.hidden = content === null;
    put(this.told, ...(content ?? []));
  }

  private drawRecent(state: State): void {
    const lines = state.texts.recent;
    this.recent.hidden = lines.length === 0;
    put(
      this.recent,
      h("h2", null, label("recent")),
      h("ol", null, ...lines.map((line) => h("li", null, line))),
    );
  }

  /** The countdown in the bar, and the table's words for screen readers. */
  private showTime(): void {
    const { seconds, running } = timeLeft();
    const state = this.state;
    this.clock.hidden = seconds === null || state === null || state.status === "none";
    if (seconds !== null) {
      this.time.textContent = mmss(seconds);
      this.timeLabel.textContent = label(running ? "time_left" : "clock_stopped");
      this.clock.classList.toggle("urgent", running && seconds <= 60);
      this.clock.classList.toggle("stopped", !running);
    }
    if (state?.table) this.table.describe(describe(state, seconds, running));
  }
}

function settingsLine(settings: NonNullable<State["settings"]>): string {
  return [
    label(`rules_${settings.rules}`),
    label(`difficulty_${settings.difficulty}`),
    label("minutes", { count: settings.minutes }),
  ].join(" · ");
}

function seats(list: Seat[]): HTMLElement {
  return h(
    "ul",
    { class: "seats" },
    ...list.map((seat) =>
      h(
        "li",
        { class: seat.active ? "seat active" : "seat", "aria-current": seat.active ? "true" : null },
        h(
          "span",
          { class: "name" },
          seat.active && h("span", { class: "turn-mark", "aria-hidden": "true" }, "▶ "),
          seat.name,
        ),
        h(
          "span",
          { class: "marks" },
          seat.cards !== null &&
            h("span", { class: "cards-count" }, label("seat_cards", { count: seat.cards })),
          seat.you && h("span", { class: "badge you" }, label("you")),
          seat.host && h("span", { class: "badge" }, label("host")),
          seat.crewmate && h("span", { class: "badge" }, label("crewmate")),
          seat.autopilot && h("span", { class: "badge" }, label("autopilot")),
        ),
      ),
    ),
  );
}

/** The table in one paragraph: Apophis, the rocket in words, the time left. */
function describe(state: State, seconds: number | null, running: boolean): string {
  const table = state.table!;
  const words = [
    `${label("apophis")} ${table.apophis}, ${label("damage")} ${table.damage}/${table.damage_to_destroy}` +
      (table.rules === "basic"
        ? `, ${label("deflection")} ${table.counters}/${table.counters_to_deflect}.`
        : "."),
    `${label("rocket")}: ${state.texts.rocket ?? label("no_rocket")}.`,
    `${label("deck")} ${table.deck}, ${label("discard")} ${table.discard}.`,
  ];
  if (seconds !== null) words.push(`${label(running ? "time_left" : "clock_stopped")} ${mmss(seconds)}.`);
  return words.join(" ");
}
