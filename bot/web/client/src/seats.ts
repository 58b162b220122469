// The people at the table: a seat as a picture (their Discord avatar, or their initial) and a name.
import { h } from "./dom";
import { label } from "./labels";
import type { Seat } from "./protocol";
import { said } from "./talk";

/** Where Discord's pictures are fetched: its CDN, or (in the Activity) the proxy's mapping of it. */
let cdn = "https://cdn.discordapp.com/";

export function setCdn(base: string): void {
  cdn = base;
}

/** The most seats a game has. */
export const SEATS = 4;

/** A person's picture: their avatar, falling back to their initial on a disc of their name's colour. */
export function portrait(seat: Pick<Seat, "id" | "name" | "avatar" | "crewmate">, size = 40): HTMLElement {
  const initial = seat.crewmate ? "⚙" : (Array.from(seat.name.trim())[0] ?? "?").toLocaleUpperCase();
  const hue = Array.from(seat.name).reduce((sum, c) => (sum * 31 + c.charCodeAt(0)) % 360, 0);
  const disc = h("span", { class: "portrait", "aria-hidden": "true" }, initial);
  // Through the CSSOM: the page's Content-Security-Policy forbids style attributes.
  disc.style.setProperty("--size", `${size}px`);
  disc.style.setProperty("--hue", String(hue));
  if (seat.avatar) {
    const img = h("img", { src: cdn + seat.avatar, alt: "", width: size, height: size, loading: "lazy" });
    img.addEventListener("error", () => img.remove());
    disc.append(img);
  }
  return disc;
}

/** The badges after a name: host, crewmate, autopilot. */
function marks(seat: Seat): HTMLElement {
  return h(
    "span",
    { class: "marks" },
    seat.host && h("span", { class: "badge" }, label("host")),
    seat.crewmate && h("span", { class: "badge" }, label("crewmate")),
    seat.autopilot && h("span", { class: "badge" }, label("autopilot")),
  );
}

/** The seats of a game in play: picture, name, cards held; whose turn it is marked. */
export function playing(seats: Seat[]): HTMLElement {
  return h(
    "ul",
    { class: "seats" },
    ...seats.map((seat) =>
      h(
        "li",
        { class: seat.active ? "seat active" : "seat", "aria-current": seat.active ? "true" : null },
        portrait(seat, 32),
        h(
          "span",
          { class: "who-sits" },
          h("span", { class: "name" }, seat.name),
          seat.active && h("span", { class: "turn-word" }, label("playing_now")),
          seat.cards !== null && h("span", { class: "cards-count" }, label("seat_cards", { count: seat.cards })),
          said(seat),
        ),
        marks(seat),
      ),
    ),
  );
}

/** A lobby's four seats: those taken, then the open ones. */
export function lobbySeats(seats: Seat[]): HTMLElement {
  const open = Math.max(0, SEATS - seats.length);
  return h(
    "ul",
    { class: "lobby-seats" },
    ...seats.map((seat) =>
      h("li", { class: "lobby-seat taken" }, portrait(seat, 56), h("span", { class: "name" }, seat.name), marks(seat)),
    ),
    ...Array.from({ length: open }, () =>
      h(
        "li",
        { class: "lobby-seat open" },
        h("span", { class: "portrait empty", "aria-hidden": "true" }, "+"),
        h("span", { class: "name" }, label("open_seat")),
      ),
    ),
  );
}
