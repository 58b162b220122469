// Leaving a game in play: asked first, as /apophis leave asks in Discord (discard the hand, a crewmate takes the seat, or stay).
import "./leave.css";
import { h } from "./dom";
import type { Send } from "./hand";
import { label } from "./labels";
import type { Button, Leaving } from "./protocol";

/** Discord's button styles: primary, secondary, success, danger. */
const STYLE = ["", "primary", "secondary", "success", "danger"];

/** "apo:q:12:34:crew" → "crew". */
function answerOf(item: Button): string {
  return item.custom_id.split(":")[4] ?? "";
}

/** Its words and answers, as drawn: redrawn only when they change (not at each move's new ids). */
function wordsOf(leaving: Leaving): string {
  const answers = leaving.moves.filter((m): m is Button => m.type === 2);
  return JSON.stringify([leaving.question, answers.map((item) => [answerOf(item), item.label, item.style])]);
}

/** The question, in a dialog the page places once; `button` opens it for the state drawn. */
export class LeaveQuestion {
  readonly dialog = h("dialog", { class: "howto leave-question", "aria-labelledby": "leave-title" });
  private leaving: Leaving | null = null;
  private send: Send = () => undefined;
  /** The words drawn in the dialog (`wordsOf`). */
  private drawn = "";

  constructor() {
    this.dialog.addEventListener("click", (event) => {
      if (event.target === this.dialog) this.dialog.close(); // a click beside the box: stay
    });
  }

  /** The Leave control for a seated player in play (null: they have nothing to leave); a
   * question open meanwhile follows the state (redrawn, its focus kept, only if its words
   * change), or closes with it. */
  button(leaving: Leaving | undefined, online: boolean, send: Send): HTMLElement | null {
    this.leaving = leaving ?? null;
    this.send = send;
    if (!leaving) {
      if (this.dialog.open) this.dialog.close();
      return null;
    }
    if (this.dialog.open && wordsOf(leaving) !== this.drawn) {
      const focused = (document.activeElement as HTMLElement | null)?.dataset.answer;
      this.draw();
      if (focused) this.dialog.querySelector<HTMLButtonElement>(`[data-answer="${focused}"]`)?.focus();
    }
    const button = h(
      "button",
      { type: "button", class: "move secondary leave-game", "data-action": "leave-game", disabled: !online },
      label("leave_game"),
    );
    button.addEventListener("click", () => this.open());
    return h("div", { class: "leave" }, button);
  }

  private open(): void {
    this.draw();
    this.dialog.showModal();
    this.dialog.querySelector<HTMLButtonElement>('[data-answer="stay"]')?.focus(); // the safe answer first
  }

  private draw(): void {
    const leaving = this.leaving;
    if (!leaving) return;
    this.drawn = wordsOf(leaving);
    const answers = leaving.moves.filter((m): m is Button => m.type === 2);
    this.dialog.replaceChildren(
      h("h2", { id: "leave-title", class: "screen-title" }, label("leave_game")),
      ...leaving.question.split("\n").map((line) => h("p", null, line)),
      h(
        "div",
        { class: "leave-answers" },
        ...answers.map((item) => {
          const answer = answerOf(item);
          const button = h(
            "button",
            { type: "button", class: `move ${STYLE[item.style] ?? "secondary"}`, "data-answer": answer },
            h("span", { class: "text" }, item.label),
          );
          button.addEventListener("click", () => this.answer(answer));
          return button;
        }),
      ),
    );
  }

  /** An answer pressed: the question closes; Leave or a crewmate is sent with the ids of the
   * state drawn now, Stay changes nothing. */
  private answer(answer: string): void {
    this.dialog.close();
    const item = this.leaving?.moves.find((m): m is Button => m.type === 2 && answerOf(m) === answer);
    if (item && answer !== "stay") this.send(item.custom_id);
  }
}
