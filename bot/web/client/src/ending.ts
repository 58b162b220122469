// The end of a game: a win celebrated, a loss told plainly, the game's story, Play again and the replay.
import { h } from "./dom";
import { label } from "./labels";
import type { Button, State } from "./protocol";

/** The ending's panel for a state whose game is over (null while it is not). */
export function ending(state: State, again: Button | null, send: (customId: string) => void): HTMLElement | null {
  const story = state.story;
  if (!story && !state.texts.result) return null;
  const won = story?.won ?? (state.table?.outcome === "destroyed" || state.table?.outcome === "deflected");
  const lost = (story?.outcome ?? state.table?.outcome) === "lost";
  const headline = story?.headline ?? state.texts.result ?? label("game_over");
  const facts: (HTMLElement | false)[] = [];
  if (story) {
    facts.push(
      h(
        "p",
        { class: "tally" },
        label("damage_done", { count: story.damage, needed: story.damage_needed }),
        story.counters !== null &&
          story.counters_needed !== null &&
          ` · ${label("deflection_done", { count: story.counters, needed: story.counters_needed })}`,
      ),
    );
    if (story.short) facts.push(h("p", { class: "tally" }, story.short));
  }
  const launches = story?.launches ?? [];
  const button =
    again &&
    h("button", { type: "button", class: "move primary", "data-action": "again" }, h("span", { class: "text" }, again.label));
  button?.addEventListener("click", () => send(again!.custom_id));
  return h(
    "section",
    {
      class: `ending ${won ? "won" : lost ? "lost" : "over"}`,
      "aria-labelledby": "ending-title",
    },
    won && h("div", { class: "burst", "aria-hidden": "true" }, ...Array.from({ length: 12 }, (_, i) => h("span", { class: `spark s${i}` }))),
    h("p", { class: "ending-kicker" }, label(won ? "ending_won" : lost ? "ending_lost" : "ending_over")),
    h("h2", { id: "ending-title", class: "ending-title" }, headline),
    ...facts,
    launches.length > 0 &&
      h(
        "div",
        { class: "story" },
        h("h3", null, label("story_launches", { count: launches.length })),
        h(
          "ol",
          { class: "story-launches" },
          ...launches.map((launch) => h("li", { class: `launch-line ${launch.result}` }, launch.line)),
        ),
      ),
    story && launches.length === 0 && h("p", { class: "muted" }, label("story_no_launch")),
    story && story.firsts.length > 0 && h("ul", { class: "story-firsts" }, ...story.firsts.map((line) => h("li", null, line))),
    h(
      "div",
      { class: "ending-moves" },
      button,
      state.game !== null && h("p", { class: "muted replay-hint" }, label("replay_hint", { game: state.game })),
    ),
  );
}
