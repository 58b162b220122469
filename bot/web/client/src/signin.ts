// Who the page is: its mode (Activity, mocked SDK, browser), and where a browser signs in.
import type { User } from "./protocol";

/** Who is signed in; the Activity's session token (a browser's stays in its HttpOnly cookie). */
export interface Identity {
  session?: string;
  user: User;
}

/** Where the page runs: inside Discord, in a test with the SDK mocked, or in a browser. */
export type Mode = "activity" | "mock" | "browser";

/** Whether ?sdk=mock is honoured: in a test or dev build only (`vite build --mode test`),
 * never in production's, where a crafted link would sign its opener in as someone else. */
export const MOCK_SDK = import.meta.env.MODE !== "production";

export function modeOf(params: URLSearchParams): Mode {
  if (MOCK_SDK && params.get("sdk") === "mock") return "mock";
  return params.has("frame_id") ? "activity" : "browser";
}

/** Where a browser signs in with Discord, coming back to this channel. */
export function signInUrl(channel: string): string {
  return `/auth/login?channel=${encodeURIComponent(channel)}`;
}

/** Inside Discord, where its proxy passes requests on to our server (stripping the prefix). */
export const PROXY = "/.proxy";
