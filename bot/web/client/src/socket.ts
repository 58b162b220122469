// The WebSocket to the table: hello on every open, reconnection with backoff, close codes.
import type { Hello, Move, Ping, ServerMessage, Welcomed } from "./protocol";

const FIRST_DELAY = 500;
const MAX_DELAY = 5000;
const PING_EVERY = 25000; // keeps proxies (Discord's among them) from closing an idle socket
const PING = JSON.stringify({ type: "ping" } satisfies Ping);
export const SESSION_EXPIRED = 4001;
export const REFUSED = 4003;

export type Link = "connecting" | "open" | "reconnecting" | "offline";

export interface SocketEvents {
  hello(): Hello;
  message(message: ServerMessage): void;
  link(link: Link): void;
  /** The session expired (4001): sign in again; resolves once the next hello may be sent. */
  expired(): Promise<void>;
}

export class TableSocket {
  private socket: WebSocket | null = null;
  private delay = FIRST_DELAY;
  private ping = 0;
  private nextId = 1;

  constructor(
    private readonly url: string,
    private readonly on: SocketEvents,
  ) {}

  get open(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  connect(): void {
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.onopen = () => {
      socket.send(JSON.stringify(this.on.hello()));
      this.ping = window.setInterval(() => socket.send(PING), PING_EVERY);
    };
    socket.onmessage = (event) => {
      const message = JSON.parse(String(event.data)) as ServerMessage;
      if (message.type === "welcome") {
        this.delay = FIRST_DELAY;
        this.on.link("open");
      }
      this.on.message(message);
    };
    socket.onclose = (event) => {
      window.clearInterval(this.ping);
      this.socket = null;
      if (event.code === REFUSED) {
        this.on.link("offline");
        return;
      }
      this.on.link("reconnecting");
      const wait = this.delay;
      this.delay = Math.min(this.delay * 2, MAX_DELAY);
      const ready = event.code === SESSION_EXPIRED ? this.on.expired() : Promise.resolve();
      void ready.then(() => window.setTimeout(() => this.connect(), wait));
    };
  }

  /** Say the first game's welcome was read (nothing when the socket is not open). */
  welcomed(): void {
    if (this.open) this.socket!.send(JSON.stringify({ type: "welcomed" } satisfies Welcomed));
  }

  /** Send a move; returns its id (null when the socket is not open). */
  move(version: number, customId: string, values?: string[]): number | null {
    if (!this.open) return null;
    const move: Move = { type: "move", id: this.nextId++, version, custom_id: customId };
    if (values) move.values = values;
    this.socket!.send(JSON.stringify(move));
    return move.id;
  }
}
