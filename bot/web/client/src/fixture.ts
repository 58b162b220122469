// Dev page only (fixture.html, never built): renders a stored state, ?state=<name>&lang=en|fr
// (&then=<name>: a second state a second later, to watch the transitions).
import "./style.css";
import type { State, Welcome } from "./protocol";
import { View } from "./view";

const files = import.meta.glob<{ default: unknown }>("../../../../tests/web/data/states/*.json");

async function load<T>(name: string): Promise<T> {
  const file = files[`../../../../tests/web/data/states/${name}.json`];
  if (!file) throw new Error(`no fixture ${name}; there are ${Object.keys(files).join(", ")}`);
  return (await file()).default as T;
}

async function show(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const view = new View((version, customId, values) => {
    view.result({
      type: "result",
      id: 0,
      ok: true,
      note: `${customId} ${values?.join(" ") ?? ""} (v${version})`,
    });
    return true;
  });
  const welcome = await load<Welcome>(`welcome-${params.get("lang") ?? "en"}`);
  const state = await load<State>(params.get("state") ?? "discard");
  const you = state.seats.find((seat) => seat.you);
  view.welcome({ ...welcome, user: you ? { id: you.id, name: you.name } : null });
  view.link("open");
  view.render(state);
  const then = params.get("then");
  if (then) {
    const next = await load<State>(then);
    window.setTimeout(() => view.render({ ...next, game: state.game }), 1000);
  }
}

void show();
