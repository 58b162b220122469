// The page's timers: the window's, or (the tests' build, a link with ?clock=manual) a clock the tests move.

/** A link of the tests' build may ask for the manual clock; production's build ignores it. */
const MANUAL =
  import.meta.env.MODE !== "production" && new URLSearchParams(location.search).get("clock") === "manual";

interface Job {
  at: number;
  run: () => void;
}

let now = 0;
let nextId = 1;
const jobs = new Map<number, Job>();

/** Run `run` in `ms` milliseconds; its id, for `cancel`. */
export function later(run: () => void, ms: number): number {
  if (!MANUAL) return window.setTimeout(run, ms);
  const id = nextId++;
  jobs.set(id, { at: now + ms, run });
  return id;
}

export function cancel(id: number): void {
  if (MANUAL) jobs.delete(id);
  else window.clearTimeout(id);
}

/** The manual clock moved on by `ms`: what falls due runs, in its order (null: the page
 * keeps the window's clock). */
export const advance: ((ms: number) => void) | null = MANUAL
  ? (ms) => {
      const until = now + ms;
      for (;;) {
        const due = [...jobs].sort((a, b) => a[1].at - b[1].at).find(([, job]) => job.at <= until);
        if (!due) break;
        jobs.delete(due[0]);
        now = due[1].at;
        due[1].run();
      }
      now = until;
    }
  : null;
