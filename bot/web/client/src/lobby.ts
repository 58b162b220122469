// The lobby: its seats, its settings (the host changes them), its buttons, a link to share, How to play.
import { h } from "./dom";
import type { Send } from "./hand";
import { counted, label } from "./labels";
import type { Button, Select, State, User } from "./protocol";
import { lobbySeats, SEATS } from "./seats";

/** The lobby's buttons, in the order they are laid out. */
const ORDER = ["join", "start", "crewadd", "crewdrop", "leave"];

function actionOf(item: Button | Select): string {
  return item.custom_id.split(":")[4] ?? "";
}

/** Why a lobby button cannot work now for this person (null: it can). The server decides
 * in the end; this only keeps people from pressing what would be refused. */
export function whyNot(action: string, state: State, user: User | null): string | null {
  if (!user) return label("why_sign_in");
  const seated = state.seats.some((seat) => seat.id === user.id);
  const host = state.host === user.id;
  const full = state.seats.length >= SEATS;
  switch (action) {
    case "join":
      return seated ? label("why_seated") : full ? label("why_full") : null;
    case "leave":
      return !seated ? label("why_not_seated") : host ? label("why_host_stays") : null;
    case "start":
      return host ? null : label("why_only_host");
    case "crewadd":
      return !host ? label("why_only_host") : full ? label("why_full") : null;
    case "crewdrop":
      return !host ? label("why_only_host") : state.seats.some((s) => s.crewmate) ? null : label("why_no_crewmate");
    default:
      return null;
  }
}

/** A button that may be off: still focusable, its reason shown beside it and read with it. */
export function control(
  text: string,
  style: string,
  action: string,
  reason: string | null,
  online: boolean,
  press: () => void,
): HTMLElement {
  const id = `why-${action}`;
  const off = reason !== null || !online;
  const button = h(
    "button",
    {
      type: "button",
      class: `move ${style}`,
      "data-action": action,
      "aria-disabled": off ? "true" : null,
      "aria-describedby": reason ? id : null,
    },
    h("span", { class: "text" }, text),
  );
  button.addEventListener("click", () => {
    if (!off) press();
  });
  return h("span", { class: "control" }, button, reason && h("span", { class: "why", id }, reason));
}

/** A setting the host may change (a select from the server), or its value in words. */
function setting(item: Select | undefined, name: string, shown: string, host: boolean, online: boolean, send: Send): HTMLElement {
  const id = `setting-${name}`;
  if (!item || !host) {
    return h("div", { class: "setting" }, h("span", { class: "setting-name" }, label(name)), h("b", null, shown));
  }
  const select = h(
    "select",
    { id, "data-action": actionOf(item), disabled: !online },
    ...item.options.map((option) =>
      h("option", { value: option.value, selected: Boolean((option as { default?: boolean }).default) }, option.label),
    ),
  );
  select.addEventListener("change", () => send(item.custom_id, [select.value]));
  return h("div", { class: "setting" }, h("label", { class: "setting-name", for: id }, label(name)), select);
}

/** The whole lobby for this person. */
export function lobby(
  state: State,
  user: User | null,
  online: boolean,
  link: string | null,
  send: Send,
  howTo: () => void,
): HTMLElement {
  const settings = state.settings;
  const items = state.lobby_moves.filter((m): m is Button | Select => m.type === 2 || m.type === 3);
  const selects = new Map(items.filter((m): m is Select => m.type === 3).map((m) => [actionOf(m), m]));
  const buttons = new Map(items.filter((m): m is Button => m.type === 2).map((m) => [actionOf(m), m]));
  const host = state.host !== null && state.host === user?.id;
  const hostName = state.seats.find((seat) => seat.host)?.name ?? "";
  const controls = ORDER.filter((action) => buttons.has(action)).map((action) => {
    const item = buttons.get(action)!;
    const style = action === "start" ? "primary" : action === "join" ? "success" : "secondary";
    return control(item.label, style, action, whyNot(action, state, user), online, () => send(item.custom_id));
  });
  return h(
    "section",
    { class: "lobby", "aria-labelledby": "lobby-title" },
    h("h2", { id: "lobby-title", class: "screen-title" }, label("lobby_title")),
    h("p", { class: "lead" }, counted("lobby_lead", state.seats.length, { name: hostName })),
    state.offer && h("p", { class: "offer" }, state.offer),
    lobbySeats(state.seats),
    settings &&
      h(
        "div",
        { class: "settings-box" },
        setting(selects.get("rules"), "rules", label(`rules_${settings.rules}`), host, online, send),
        setting(selects.get("difficulty"), "difficulty", label(`difficulty_${settings.difficulty}`), host, online, send),
        setting(selects.get("minutes"), "countdown", label("minutes", { count: settings.minutes }), host, online, send),
      ),
    controls.length > 0
      ? h("div", { class: "lobby-moves" }, ...controls)
      : h("p", { class: "muted" }, label(user ? "why_cannot_play" : "why_sign_in")),
    !host && user && h("p", { class: "muted" }, label("waiting_for_host")),
    h("div", { class: "lobby-foot" }, link && share(link), howToButton(howTo)),
  );
}

/** The button that opens How to play. */
export function howToButton(open: () => void): HTMLButtonElement {
  const button = h("button", { type: "button", class: "move secondary", "data-action": "howto" }, label("how_to_play"));
  button.addEventListener("click", open);
  return button;
}

/** The table's link, to copy and send to friends. */
export function share(link: string): HTMLElement {
  const field = h("input", { type: "text", readonly: true, value: link, "aria-label": label("share_link") });
  const done = h("span", { class: "copied", role: "status" });
  const copy = h("button", { type: "button", class: "move secondary", "data-action": "copy" }, label("copy_link"));
  copy.addEventListener("click", () => {
    field.select();
    const copied = navigator.clipboard?.writeText(link) ?? Promise.reject(new Error("no clipboard"));
    copied.then(
      () => (done.textContent = label("copied")),
      () => (done.textContent = label("copy_by_hand")),
    );
  });
  return h("div", { class: "share" }, h("span", { class: "share-name" }, label("share_link")), h("div", { class: "share-row" }, field, copy), done);
}
