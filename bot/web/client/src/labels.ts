// The client's fixed words: the server's, in the page's config and again in its socket's welcome.

/** Only for a page served without its config (Vite's dev server): the catalogs hold every label. */
const BEFORE_WELCOME: Record<string, string> = {
  title: "Apophis",
  connecting: "Connecting…",
  reconnecting: "Reconnecting…",
  offline: "Offline: reload the page to try again.",
  watching: "Watching",
  sign_in: "Sign in with Discord",
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

/** A label with its {placeholders} filled; a missing key shows as itself. (No French
 * label puts a word that elides before a placeholder: the catalog tests see to it.) */
export function label(key: string, values: Record<string, string | number> = {}): string {
  const text = labels[key] ?? BEFORE_WELCOME[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** A label that counts: its form for `count` by the language's plural rule (the server
 * sends "<key>.one" and "<key>.other", as its catalog words them), `count` filled in. */
export function counted(key: string, count: number, values: Record<string, string | number> = {}): string {
  const form = new Intl.PluralRules(language).select(count) === "one" ? "one" : "other";
  return label(`${key}.${form}`, { ...values, count });
}

/** Upper case in the page's language (panel headings). */
export function upper(text: string): string {
  return text.toLocaleUpperCase(language);
}
