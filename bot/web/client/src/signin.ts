// Who the page is: its mode (Activity, mocked SDK, browser) and, in a browser, the session cookie.
import type { User } from "./protocol";

export interface Identity {
  session: string;
  user: User;
}

/** Where the page runs: inside Discord, in a test with the SDK mocked, or in a browser. */
export type Mode = "activity" | "mock" | "browser";

export function modeOf(params: URLSearchParams): Mode {
  if (params.get("sdk") === "mock") return "mock";
  return params.has("frame_id") ? "activity" : "browser";
}

/** The browser's session from its cookie, or null (then the page only watches). */
export async function browserSession(): Promise<Identity | null> {
  const answer = await fetch("/api/session", { credentials: "same-origin" });
  if (!answer.ok) return null;
  return (await answer.json()) as Identity;
}

/** Where a browser signs in with Discord, coming back to this channel. */
export function signInUrl(channel: string): string {
  return `/auth/login?channel=${encodeURIComponent(channel)}`;
}

/** Inside Discord, where its proxy passes requests on to our server (stripping the prefix). */
export const PROXY = "/.proxy";
