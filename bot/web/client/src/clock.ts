// The countdown: seconds left from the server's deadline, on a clock corrected by its "now".
import type { State } from "./protocol";

let offset = 0; // server time minus local time, in seconds
let deadline: number | null = null;
let remaining: number | null = null;

/** Take the clock from a state just received. */
export function setClock(state: State): void {
  offset = state.now - Date.now() / 1000;
  deadline = state.deadline;
  remaining = state.remaining;
}

/** Seconds left (null when the game has no clock), and whether it is running. */
export function timeLeft(): { seconds: number | null; running: boolean } {
  if (deadline !== null) {
    return { seconds: Math.max(0, deadline - (Date.now() / 1000 + offset)), running: true };
  }
  return { seconds: remaining === null ? null : Math.max(0, remaining), running: false };
}

/** m:ss, as the game's own lines write a time ("1:16 to spare"): a running countdown
 * rounds up (it shows 0:00 only when time is out); a stopped one rounds to the nearest
 * second, as those lines do. */
export function mmss(seconds: number, running = false): string {
  const whole = running ? Math.ceil(seconds) : Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/** Call `show` now and whenever the shown second changes. */
export function tick(show: () => void): void {
  let last = "";
  const step = (): void => {
    const { seconds, running } = timeLeft();
    const key = `${seconds === null ? "-" : mmss(seconds, running)}${running}`;
    if (key !== last) {
      last = key;
      show();
    }
  };
  step();
  setInterval(step, 250);
}
