// Table talk on the live table: the Say menu (a signal to the team, sent as the panel's move) and a seat's latest signal.
import "./talk.css";
import { h } from "./dom";
import type { Send } from "./hand";
import { label } from "./labels";
import type { Seat, Select } from "./protocol";

/** The signal picked and not yet sent, kept while states come and go. */
let picked = "";

/** A seat's latest signal that still stands, under its name ("💬 I'll build ♥"). */
export function said(seat: Seat): HTMLElement | null {
  return seat.said ? h("span", { class: "said" }, `💬 ${seat.said}`) : null;
}

/** The Say menu: pick a signal, then Confirm (a signal takes no turn: it is open out of turn too). */
export function sayControl(menu: Select | undefined, open: boolean, send: Send): HTMLElement | null {
  if (!menu) return null;
  const prompt = menu.placeholder ?? "";
  if (!menu.options.some((option) => option.value === picked)) picked = "";
  const choice = h(
    "select",
    { class: "say-choice", "aria-label": prompt },
    h("option", { value: "", disabled: true, selected: picked === "" }, prompt),
    ...menu.options.map((option) => h("option", { value: option.value, selected: option.value === picked }, option.label)),
  );
  const confirm = h(
    "button",
    { type: "button", class: "move secondary say-send", disabled: !open || picked === "" },
    label("send"),
  );
  choice.addEventListener("change", () => {
    picked = choice.value;
    confirm.disabled = !open || picked === "";
  });
  confirm.addEventListener("click", () => {
    if (picked === "") return;
    confirm.disabled = true;
    const value = picked;
    picked = "";
    send(menu.custom_id, [value]);
  });
  return h("div", { class: "say" }, choice, confirm);
}
