// The client's fixed words: welcome.labels from the server, English until it arrives.

/** Only what can show before the welcome: the server's catalogs hold every label. */
const BEFORE_WELCOME: Record<string, string> = {
  title: "Apophis",
  connecting: "Connecting…",
  reconnecting: "Reconnecting…",
  offline: "Offline: reload the page to try again.",
  watching: "Watching",
  sign_in: "Sign in with Discord",
  no_game: "There is no game in this channel.",
  bad_link: "This link does not name a channel.",
};

let labels: Record<string, string> = BEFORE_WELCOME;
let language = "en";

export function setLabels(next: Record<string, string>, lang: string): void {
  labels = next;
  language = lang;
  document.documentElement.lang = lang;
  document.title = label("title");
}

export function currentLanguage(): string {
  return language;
}

/** French words that elide before a vowel or a mute h ("que Ada" is "qu'Ada"). */
const ELIDED = /(^|[\s(«])(qu|d|l|j|n|s|c)e $/i;
const VOWEL = /^[aeiouyhàâäéèêëîïôöùûüœæ]/i;

/** A label with its {placeholders} filled (French elisions made before a filled-in value
 * that starts with a vowel); a missing key shows as itself. */
export function label(key: string, values: Record<string, string | number> = {}): string {
  const text = labels[key] ?? BEFORE_WELCOME[key] ?? key;
  let out = "";
  let last = 0;
  for (const match of text.matchAll(/\{(\w+)\}/g)) {
    const name = match[1];
    const value = name in values ? String(values[name]) : match[0];
    let before = text.slice(last, match.index);
    const elides = language === "fr" && ELIDED.exec(before);
    if (elides && VOWEL.test(value)) before = `${before.slice(0, -2)}’`;
    out += before + value;
    last = match.index + match[0].length;
  }
  return out + text.slice(last);
}

/** Upper case in the page's language (panel headings). */
export function upper(text: string): string {
  return text.toLocaleUpperCase(language);
}
