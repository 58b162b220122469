// The messages exchanged with the bot's web server: bot/views/table_state.py's, field for field
// (tests/web/test_protocol.py compares the two).

export type Colour = "green" | "red" | "blue" | "yellow";

export interface User {
  id: string;
  name: string;
  locale?: string;
}

/** A Discord message component, as the hand panel builds it. */
export interface Button {
  type: 2;
  style: 1 | 2 | 3 | 4;
  label: string;
  emoji?: { name: string };
  custom_id: string;
  disabled?: boolean;
}

export interface SelectOption {
  label: string;
  value: string;
  emoji?: { name: string };
  description?: string;
  /** The one chosen now (a lobby's setting). */
  default?: boolean;
}

export interface Select {
  type: 3;
  custom_id: string;
  placeholder?: string;
  min_values?: number;
  max_values?: number;
  options: SelectOption[];
}

export interface ActionRow {
  type: 1;
  components: Component[];
}

export type Component = Button | Select | ActionRow;

export interface Seat {
  id: string;
  name: string;
  cards: number | null;
  active: boolean;
  crewmate: boolean;
  autopilot: boolean;
  host: boolean;
  /** The picture they chose, a path under Discord's CDN (null: their initial is shown). */
  avatar: string | null;
  /** Their latest signal to the team that still stands, in the page's language (null: none). */
  said: string | null;
}

export interface Piece {
  colour: Colour;
  size: number;
}

export interface Table {
  rules: "basic" | "advanced";
  phase: "play" | "discard" | "reshuffle" | "reroll" | "over";
  outcome: null | "destroyed" | "deflected" | "lost" | "abandoned";
  apophis: number;
  damage: number;
  damage_to_destroy: number;
  counters: number;
  counters_to_deflect: number;
  rocket: (Piece & { builder: string | null })[];
  points: number;
  fuel: number;
  fuel_needed: number;
  sequence: { colour: Colour; player: string | null }[];
  depot: Piece[];
  deck: number;
  discard: number;
}

export interface Check {
  step: string;
  die: number | null;
  /** Each part of the sum: the engine's name, its value, its name in the page's language. */
  parts: [string, number, string][];
  total: number;
  target: number;
  below: boolean;
  success: boolean | null;
  /** What came of it, in words. */
  verdict: string;
}

/** A game's story, once it is over (bot.views.story). */
export interface Story {
  outcome: string | null;
  won: boolean;
  headline: string;
  launches: { sections: Piece[]; points: number; result: string; line: string }[];
  damage: number;
  damage_needed: number;
  counters: number | null;
  counters_needed: number | null;
  time_left: number | null;
  short: string | null;
  /** The firsts its people earned with it, a line for each set and who earned it. */
  firsts: string[];
}

export interface Card {
  card: string;
  label: string;
  colour: Colour;
}

/** A channel's table: none, a lobby, a game in play, or over (with a result, or without). */
export type Status = "none" | "lobby" | "active" | "finished" | "abandoned";

/** What leaving a game in play asks first: its words and its answers (the question's custom ids). */
export interface Leaving {
  question: string;
  moves: Component[];
}

/** A newcomer's welcome: its line, and the rocket that can launch in words (the page draws it). */
export interface First {
  line: string;
  alt: string;
}

export interface State {
  type: "state";
  channel: string;
  game: number | null;
  version: number;
  status: Status;
  now: number;
  deadline: number | null;
  remaining: number | null;
  time_scale: number;
  reshuffle_ends: number | null;
  host: string | null;
  settings: { rules: "basic" | "advanced"; difficulty: string; minutes: number } | null;
  seats: Seat[];
  /** How many watch the table without a seat. */
  watching: number;
  table: Table | null;
  texts: { rocket: string | null; next: string | null; result: string | null; recent: string[] };
  report: null | { lines: string[]; open: boolean; checks: Check[] };
  story: Story | null;
  /** Why the lobby offers its difficulty (a first game's), in words; null: it offers none. */
  offer: string | null;
  lobby_moves: Component[];
  /** The viewer, signed in; their hand and moves once they play in the game. */
  you: null | {
    id: string;
    seated: boolean;
    hand?: Card[];
    /** The hand panel's moves, less its row breaks, Refresh and the Say menu. */
    moves?: Component[];
    /** The Say menu: the signals they may give the team now (sent as its move). */
    say?: Select;
    situation?: string | null;
    your_turn?: boolean;
    /** Not seated in a game in play whose seat is free: the seat Join takes, in words. */
    drop_in?: string;
    /** Seated in a game in play: what leaving it asks first (Leave, a crewmate, Stay). */
    leave?: Leaving;
    /** A newcomer not yet welcomed: the first game's welcome, until they close it. */
    first?: First;
  };
}

export interface Welcome {
  type: "welcome";
  user: User | null;
  language: "en" | "fr";
  labels: Record<string, string>;
}

export interface Result {
  type: "result";
  id: number;
  ok: boolean;
  note: string;
}

export interface Refused {
  type: "refused";
  reason: string;
  sign_in?: boolean;
}

export interface Pong {
  type: "pong";
}

export type ServerMessage = Welcome | State | Result | Refused | Pong;

export interface Hello {
  type: "hello";
  /** The channel a browser's page watches (inside Discord, the server asks Discord instead). */
  channel: string;
  /** Inside Discord, the Activity's instance: the server asks Discord where it runs and who is in it. */
  instance?: string;
  session: string | null;
  language: "en" | "fr" | null;
}

export interface Move {
  type: "move";
  id: number;
  version: number;
  custom_id: string;
  values?: string[];
}

/** Sent now and then to keep proxies from closing an idle socket (answered with a pong). */
export interface Ping {
  type: "ping";
}

/** A newcomer closed the first game's welcome: it is not shown to them again. */
export interface Welcomed {
  type: "welcomed";
}

export type ClientMessage = Hello | Move | Ping | Welcomed;
