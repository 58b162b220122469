// Your turn, told: a banner for everyone; a sound and a phone's buzz only for who opts in (remembered).
import { h } from "./dom";
import { label } from "./labels";
import { cancel, later } from "./timers";

type Choice = "sound" | "vibrate";
const STORED = "apophis.notify";

function stored(): Set<Choice> {
  try {
    const saved = JSON.parse(window.localStorage.getItem(STORED) ?? "[]") as unknown;
    return new Set(Array.isArray(saved) ? saved.filter((c): c is Choice => c === "sound" || c === "vibrate") : []);
  } catch {
    return new Set(); // storage refused (a private window, a sandboxed frame): nothing remembered
  }
}

export class TurnNotice {
  readonly banner = h("div", { class: "turn-banner", hidden: true, "aria-hidden": "true" });
  private readonly chosen = stored();
  private timer = 0;
  private audio: AudioContext | null = null;

  /** The options' checkboxes, for the page's menu. */
  options(): HTMLElement {
    const box = (choice: Choice, text: string): HTMLElement => {
      const input = h("input", { type: "checkbox", checked: this.chosen.has(choice), "data-option": choice });
      input.addEventListener("change", () => {
        if (input.checked) this.chosen.add(choice);
        else this.chosen.delete(choice);
        try {
          window.localStorage.setItem(STORED, JSON.stringify([...this.chosen]));
        } catch {
          // kept for this visit only
        }
        if (input.checked && choice === "sound") this.beep(); // heard once: the page may play sound now
      });
      return h("label", { class: "option" }, input, ` ${text}`);
    };
    const boxes = [box("sound", label("option_sound"))];
    if ("vibrate" in navigator) boxes.push(box("vibrate", label("option_vibrate")));
    return h("fieldset", { class: "options-box" }, h("legend", null, label("options")), ...boxes);
  }

  /** How long the banner shows, in milliseconds (it leaves sooner if the turn does). */
  static readonly SHOWN_MS = 2200;

  /** The turn came to this person: the banner, over the bar (never over the table or
   * the hand), for a moment. */
  yourTurn(): void {
    this.banner.textContent = label("your_turn_now");
    this.banner.hidden = false;
    this.banner.classList.remove("show");
    void this.banner.offsetWidth; // restart the animation
    this.banner.classList.add("show");
    cancel(this.timer);
    this.timer = later(() => this.turnOver(), TurnNotice.SHOWN_MS);
    if (this.chosen.has("sound")) this.beep();
    if (this.chosen.has("vibrate")) navigator.vibrate?.([80, 60, 80]);
  }

  /** The banner leaves: its moment is over, or the turn has passed. */
  turnOver(): void {
    cancel(this.timer);
    this.banner.hidden = true;
    this.banner.classList.remove("show");
  }

  /** Two short rising tones (made, not loaded: nothing to download). */
  private beep(): void {
    try {
      this.audio ??= new AudioContext();
      const now = this.audio.currentTime;
      [660, 880].forEach((pitch, i) => {
        const tone = this.audio!.createOscillator();
        const gain = this.audio!.createGain();
        tone.frequency.value = pitch;
        gain.gain.setValueAtTime(0.0001, now + i * 0.16);
        gain.gain.exponentialRampToValueAtTime(0.2, now + i * 0.16 + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.16 + 0.14);
        tone.connect(gain).connect(this.audio!.destination);
        tone.start(now + i * 0.16);
        tone.stop(now + i * 0.16 + 0.15);
      });
    } catch {
      // no audio here: the banner says it
    }
  }
}
