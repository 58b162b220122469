// The page: one screen for each state (no game, lobby, play, the end, a notice), the bar above it, from each state.
import { LaunchReport } from "./checks";
import { mmss, setClock, tick, timeLeft } from "./clock";
import { h, put } from "./dom";
import { ending } from "./ending";
import { firstRocket } from "./first";
import { hand, Moves, pickerShowsHand } from "./hand";
import { HowTo } from "./howto";
import { listenForShortcuts } from "./keys";
import { LeaveQuestion } from "./leave";
import { counted, label, setLabels } from "./labels";
import { control, howToButton, lobby, share } from "./lobby";
import { TurnNotice } from "./notify";
import type { Button, Result, State, User, Welcome } from "./protocol";
import { playing } from "./seats";
import { sayControl } from "./talk";
import type { Link } from "./socket";
import { fuelShort, TableView } from "./table";
import { advance } from "./timers";

/** Sends a move chosen on a state's version; false when it could not leave (no socket). */
export type MoveSender = (version: number, customId: string, values?: string[]) => boolean;

/** What tests read: the last state drawn, whether the socket is open, the words a count
 * gives (`counted`); with ?clock=manual, the page's timers' clock, which they move
 * (`advance`, milliseconds). */
interface TestHook {
  lastState: State | null;
  socketOpen: boolean;
  counted: typeof counted;
  advance: ((ms: number) => void) | null;
}

declare global {
  interface Window {
    __apophis?: TestHook;
  }
}

/** The tests' hook, in the tests' build only (`vite build --mode test`): production's has
 * none (its tests read what its page was sent and shows). */
const HOOK: TestHook | null =
  import.meta.env.MODE === "production" ? null : { lastState: null, socketOpen: false, counted, advance };
if (HOOK) window.__apophis = HOOK;

/** A note stays at least this long, longer when it is long (a hint). */
const NOTE_SECONDS = 6;
const NOTE_CHARACTERS_A_SECOND = 15;
/** The screens of the page; one shows at a time (`document.body.dataset.screen`). */
type Screen = "notice" | "lobby" | "play";

export class View {
  private readonly title = h("h1", { class: "sr-only" }, label("title"));
  private readonly skipLink = h("a", { class: "skip-link", href: "#main" }, label("skip_to_table"));
  private readonly time = h("span", { class: "time" });
  private readonly timeLabel = h("span", { class: "time-label" });
  private readonly clock = h("div", { class: "clock", role: "timer", hidden: true }, this.time, this.timeLabel);
  private readonly next = h("p", { class: "next" });
  private readonly audience = h("span", { class: "audience", hidden: true });
  private readonly linkLine = h("span", { class: "link", role: "status", hidden: true });
  private readonly menu = h("details", { class: "menu" });
  private readonly noticeBox = h("section", { class: "notice", "aria-live": "polite" });
  private readonly lobbyBox = h("div", { class: "lobby-screen" });
  private readonly table = new TableView();
  private readonly endBox = h("div", { class: "end-box" });
  private readonly board = h("section", { class: "board" });
  private readonly mine = h("section", { class: "mine" });
  private readonly players = h("section", { class: "players" });
  private readonly report = new LaunchReport();
  private readonly recent = h("section", { class: "recent", hidden: true });
  private readonly playBox = h(
    "div",
    { class: "play-screen" },
    this.endBox,
    this.board,
    this.mine,
    this.players,
    this.report.root,
    this.recent,
  );
  private readonly toast = h("p", { class: "toast", role: "status", hidden: true });
  private readonly announcer = h("div", { class: "sr-only", "aria-live": "polite" });
  private readonly moves = new Moves();
  private readonly howTo = new HowTo();
  private readonly leaving = new LeaveQuestion();
  private readonly turn = new TurnNotice();
  private state: State | null = null;
  private user: User | null = null;
  private signIn: string | null = null;
  private publicUrl: string | null = null;
  private open = false;
  private refused: string | null = null;
  private toastTimer = 0;
  /** The last actions as they stood before a launch, shown while its dice roll. */
  private held: string[] | null = null;
  /** The first game's welcome was closed here (the server is told, and stops sending it). */
  private welcomed = false;

  constructor(
    private readonly sendMove: MoveSender,
    private readonly sendWelcomed: () => void = () => undefined,
  ) {
    put(
      document.body,
      this.skipLink,
      h(
        "header",
        { class: "bar" },
        this.title,
        this.clock,
        this.next,
        h("span", { class: "bar-end" }, this.audience, this.linkLine, this.menu),
        this.turn.banner,
      ),
      h("main", { id: "main", tabindex: -1 }, this.noticeBox, this.lobbyBox, this.playBox),
      this.howTo.dialog,
      this.leaving.dialog,
      this.toast,
      this.announcer,
    );
    this.drawMenu();
    this.show("notice");
    put(this.noticeBox, h("p", { class: "waiting" }, label("connecting")));
    this.toast.addEventListener("click", () => (this.toast.hidden = true));
    this.moves.onRefused = (reason) => this.note(reason);
    this.report.onDone = () => {
      this.held = null;
      if (this.state) this.drawRecent(this.state);
      // A launch that ended the game: its ending, above, once the dice have told it.
      if (this.state?.status === "finished") this.endBox.scrollIntoView({ block: "start", behavior: "smooth" });
    };
    listenForShortcuts(this.moves);
    tick(() => this.showTime());
  }

  /** Where the table can be shared from (the server's public address); null inside
   * Discord, where people join the Activity itself (and a DM's table is no link's). */
  setPublicUrl(url: string | null): void {
    this.publicUrl = url;
  }

  /** The connection's state, shown in the bar when it is not simply open. */
  link(link: Link): void {
    this.open = link === "open";
    if (HOOK) HOOK.socketOpen = this.open;
    document.body.dataset.link = link;
    this.linkLine.hidden = this.open || this.refused !== null;
    this.linkLine.textContent = label(link);
    this.linkLine.className = `link ${link}`;
    if (link === "offline" && this.refused === null && this.state === null) {
      this.notice(label("offline"), null);
    }
    if (this.state) this.drawFor(this.state);
  }

  /** Who is signed in, and where a browser page signs in (offered while nobody is; null in Discord). */
  identity(user: User | null, signIn: string | null): void {
    this.user = user;
    this.signIn = signIn;
    this.drawMenu();
    if (this.state) this.drawFor(this.state);
  }

  welcome(message: Welcome): void {
    setLabels(message.labels, message.language);
    this.title.textContent = label("title");
    this.skipLink.textContent = label("skip_to_table");
    this.identity(message.user, this.signIn);
    if (!this.state && this.refused === null) put(this.noticeBox, h("p", { class: "waiting" }, label("connecting")));
  }

  render(state: State): void {
    const previous = this.state;
    this.state = state;
    this.refused = null;
    if (HOOK) HOOK.lastState = state;
    document.body.dataset.version = String(state.version);
    document.body.dataset.status = state.status;
    setClock(state);
    for (const text of [state.texts.next, state.texts.result]) {
      if (text && text !== (text === state.texts.next ? previous?.texts.next : previous?.texts.result)) {
        this.announce(text);
      }
    }
    const yours = Boolean(state.you?.your_turn);
    if (yours && !previous?.you?.your_turn && previous?.game === state.game && state.status === "active") {
      this.turn.yourTurn();
    } else if (!yours || state.status !== "active") this.turn.turnOver(); // it leaves with the turn
    this.drawFor(state, previous);
  }

  /** A page opened without a channel, or with a link that names none. */
  badLink(): void {
    document.body.dataset.status = "none";
    this.notice(label("bad_link"), label("bad_link_how"));
  }

  /** The server refused this page the table (its reason, and whether signing in may lift
   * it); the socket is closed for good. */
  refuse(reason: string, signIn: boolean): void {
    this.refused = reason;
    this.state = null;
    document.body.dataset.status = "refused";
    this.linkLine.hidden = true;
    this.notice(reason, null, signIn && !this.user && this.signIn !== null && this.signInLine());
  }

  /** The answer to one of our moves (refused or not), and the moves again. A move done
   * while a launch plays says nothing over its dice: the report tells it. */
  result(message: Result): void {
    if (!(message.ok && this.report.playing)) this.note(message.note, message.ok);
    if (this.state) this.drawFor(this.state);
  }

  /** A note for everyone: on screen a few seconds, and read out (`done`: it says a move
   * was made, and gives way to a launch's dice). */
  note(text: string, done = false): void {
    this.toast.textContent = text;
    this.toast.hidden = false;
    this.toast.dataset.done = String(done);
    window.clearTimeout(this.toastTimer);
    const seconds = Math.max(NOTE_SECONDS, text.length / NOTE_CHARACTERS_A_SECOND);
    this.toastTimer = window.setTimeout(() => (this.toast.hidden = true), seconds * 1000);
  }

  private announce(text: string): void {
    this.announcer.textContent = "";
    window.requestAnimationFrame(() => (this.announcer.textContent = text));
  }

  private show(screen: Screen): void {
    document.body.dataset.screen = screen;
    this.noticeBox.hidden = screen !== "notice";
    this.lobbyBox.hidden = screen !== "lobby";
    this.playBox.hidden = screen !== "play";
  }

  private send(state: State, customId: string, values?: string[]): void {
    if (!this.sendMove(state.version, customId, values)) {
      this.note(label("offline"));
      this.drawFor(state);
    }
  }

  private shareLink(state: State): string | null {
    return this.publicUrl ? `${this.publicUrl}/?channel=${state.channel}` : null;
  }

  /** A message in place of the table, with what to do next. */
  private notice(text: string, how: string | null, ...more: (Node | false | null)[]): void {
    this.show("notice");
    put(
      this.noticeBox,
      h(
        "div",
        { class: "notice-card" },
        h("h2", { class: "screen-title" }, text),
        how && h("p", { class: "lead" }, how),
        ...more,
        howToButton(() => this.howTo.open()),
      ),
    );
  }

  private drawFor(state: State, previous: State | null = state): void {
    const send = (id: string, values?: string[]): void => this.send(state, id, values);
    this.next.textContent =
      state.texts.next ?? (state.status === "lobby" ? label("lobby") : state.status === "none" ? "" : label("title"));
    this.next.classList.toggle("yours", Boolean(state.you?.your_turn));
    this.audience.hidden = state.watching <= 0;
    this.audience.textContent = counted("watching_count", state.watching);
    if (state.status === "none") {
      const link = this.shareLink(state);
      // Inside Discord, where no game is, those in the Activity may open one here.
      const opener = state.lobby_moves.find((m): m is Button => m.type === 2 && m.custom_id.endsWith(":open"));
      const why = this.user ? null : label("why_sign_in");
      this.notice(
        label("no_game_title"),
        label("no_game_how"),
        opener ? control(opener.label, "primary", "open", why, this.open, () => send(opener.custom_id)) : null,
        this.signInLine(),
        link !== null && share(link),
      );
    } else if (state.status === "lobby") {
      this.show("lobby");
      put(
        this.lobbyBox,
        this.signInLine(),
        this.firstGame(state),
        lobby(state, this.user, this.open, this.shareLink(state), send, () => this.howTo.open()),
      );
    } else {
      this.show("play");
      this.drawPlay(state, previous !== null && previous.game === state.game && previous !== state ? previous : null);
    }
    this.showTime();
  }

  /** The game's screen; `before`, the state shown just before it in the same game (a
   * launch new since then plays its dice). */
  private drawPlay(state: State, before: State | null): void {
    const send = (id: string, values?: string[]): void => this.send(state, id, values);
    const again = state.lobby_moves.find((m): m is Button => m.type === 2 && m.custom_id.endsWith(":again"));
    const end = ending(state, again ?? null, (id) => send(id));
    this.endBox.hidden = end === null;
    put(this.endBox, end);
    const parts: (Node | false)[] = [];
    if (state.table) {
      this.table.draw(state, state.table);
      parts.push(this.table.svg);
      if (state.texts.rocket && state.table.rocket.length > 0) {
        const ok = !fuelShort(state.table);
        parts.push(h("p", { class: ok ? "rocket-line ok" : "rocket-line short" }, state.texts.rocket));
      }
    }
    put(this.board, ...parts);
    put(this.players, h("h2", { class: "sr-only" }, label("players")), playing(state.seats));
    this.drawMine(state, send);
    const rolling = this.report.playing;
    this.report.draw(state, before !== null);
    if (this.report.playing && !rolling) {
      this.held = before?.texts.recent ?? [];
      if (this.toast.dataset.done === "true") this.toast.hidden = true; // the dice in full view
    }
    this.drawRecent(state);
  }

  /** The last actions: while a launch's dice roll, as they were before it (its result is
   * told once the dice have shown it). */
  private drawRecent(state: State): void {
    if (!this.report.playing) this.held = null;
    const lines = this.held ?? state.texts.recent;
    this.recent.hidden = lines.length === 0;
    put(this.recent, h("h2", null, label("recent")), h("ol", null, ...lines.map((line) => h("li", null, line))));
  }

  /** Who is signed in, or a way to sign in (a browser page); watching otherwise. */
  private signInLine(): HTMLElement {
    const seated = Boolean(this.state?.you?.seated);
    const who = h("p", { class: "who" });
    if (this.user) who.append(label("signed_in_as", { name: this.user.name }));
    if (!seated) who.append(this.user ? " · " : "", label("watching"));
    if (!this.user && this.signIn) {
      who.append(" · ", h("a", { href: this.signIn, class: "sign-in" }, label("sign_in")));
    }
    return who;
  }

  private drawMine(state: State, send: (id: string, values?: string[]) => void): void {
    const you = state.you;
    if (!you?.seated || state.table === null || state.status !== "active") {
      put(this.mine, this.dropIn(state, send), this.signInLine());
      this.moves.draw([], [], false, null, send);
      this.leaving.button(undefined, this.open, send);
      return;
    }
    const why = !this.open ? label("offline_short") : you.your_turn ? label("why_not_now") : label("why_not_your_turn");
    const moves = you.moves ?? [];
    const cards = you.hand ?? [];
    this.moves.draw(moves, cards, this.open, why, send, fuelShort(state.table));
    put(
      this.mine,
      h(
        "h2",
        null,
        label("your_hand"),
        " ",
        h("span", { class: "count" }, `(${cards.length})`),
        you.your_turn && h("span", { class: "badge turn" }, label("your_turn")),
      ),
      you.situation && h("p", { class: "situation" }, you.situation),
      !pickerShowsHand(moves, cards) && hand(cards),
      moves.length > 0 && h("h2", { class: "sr-only" }, label("moves")),
      this.moves.root,
      sayControl(you.say, this.open, send),
      this.firstGame(state), // below the moves: the hand and its moves stay in view
      this.leaving.button(you.leave, this.open, send),
      this.signInLine(),
    );
  }

  /** A newcomer's welcome, the first-game rocket, until they close it (above the lobby;
   * in play, below the moves). */
  private firstGame(state: State): HTMLElement | null {
    if (this.welcomed) return null;
    return firstRocket(state.you?.first, () => {
      this.welcomed = true;
      this.sendWelcomed();
    });
  }

  /** A game in play with a seat free, for a signed-in member not seated: which seat, and Join. */
  private dropIn(state: State, send: (id: string) => void): HTMLElement | null {
    const join = state.lobby_moves.find((m): m is Button => m.type === 2 && m.custom_id.endsWith(":join"));
    const line = state.you?.drop_in;
    if (!join || !line || state.status !== "active") return null;
    const why = this.open ? null : label("offline_short");
    return h(
      "div",
      { class: "drop-in" },
      h("p", { class: "situation" }, line),
      control(join.label, "success", "join", why, this.open, () => send(join.custom_id)),
    );
  }

  /** The bar's menu: How to play, and the turn's sound and buzz (who opts in). */
  private drawMenu(): void {
    put(
      this.menu,
      h("summary", { "aria-label": label("menu") }, h("span", { "aria-hidden": "true" }, "☰")),
      h("div", { class: "menu-body" }, howToButton(() => this.howTo.open()), this.turn.options()),
    );
  }

  /** The countdown in the bar, and the table's words for screen readers. */
  private showTime(): void {
    const { seconds, running } = timeLeft();
    const state = this.state;
    this.clock.hidden = seconds === null || state === null || state.status === "none" || state.status === "lobby";
    if (seconds !== null) {
      this.time.textContent = mmss(seconds, running);
      this.timeLabel.textContent = label(running ? "time_left" : state?.table?.outcome ? "time_at_end" : "clock_stopped");
      this.clock.classList.toggle("urgent", running && seconds <= 60);
      this.clock.classList.toggle("stopped", !running);
    }
    if (state?.table) this.table.describe(describe(state, seconds, running));
  }
}

/** The table in one paragraph: Apophis, the rocket in words, the time left. */
function describe(state: State, seconds: number | null, running: boolean): string {
  const table = state.table!;
  const words = [
    label("describe_apophis", { value: table.apophis, damage: table.damage, needed: table.damage_to_destroy }),
    table.rules === "basic"
      ? label("describe_deflection", { count: table.counters, needed: table.counters_to_deflect })
      : "",
    table.rocket.length > 0 && state.texts.rocket
      ? label("describe_rocket", { rocket: state.texts.rocket })
      : label("no_rocket"),
    label("describe_piles", { deck: table.deck, discard: table.discard }),
  ];
  if (seconds !== null) words.push(label("describe_time", { time: mmss(seconds, running) }));
  return words.filter(Boolean).join(" ");
}
