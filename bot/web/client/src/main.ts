// Boot: read the server's config, sign in as the page's mode allows, open the table's socket.
import "./style.css";
import "./screens.css";
import { label, setLabels } from "./labels";
import { PROXY, modeOf, signInUrl, type Identity } from "./signin";
import { setCdn } from "./seats";
import { TableSocket } from "./socket";
import { View } from "./view";

interface Config {
  clientId: string;
  publicUrl: string | null;
  /** The page's words before its socket's welcome, in the language the page asked for. */
  language: "en" | "fr" | null;
  labels: Record<string, string> | null;
}

function readConfig(): Config {
  const script = document.getElementById("apophis-config");
  const config = script?.textContent ? (JSON.parse(script.textContent) as Partial<Config>) : {};
  return {
    clientId: config.clientId ?? "",
    publicUrl: config.publicUrl ?? null,
    language: config.language ?? null,
    labels: config.labels ?? null,
  };
}

/** A channel's id as Discord writes it (a snowflake: digits). */
const CHANNEL = /^[0-9]{1,20}$/;

/** The language to watch in without a session: ?lang=, else the browser's. */
function guessLanguage(params: URLSearchParams, config: Config): "en" | "fr" {
  const wanted = params.get("lang") ?? config.language ?? navigator.language;
  return wanted.toLowerCase().startsWith("fr") ? "fr" : "en";
}

async function boot(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const config = readConfig();
  const { clientId, publicUrl } = config;
  if (config.labels && config.language) setLabels(config.labels, config.language);
  const mode = modeOf(params);
  let socket: TableSocket | null = null;
  const view = new View(
    (version, customId, values) => socket?.move(version, customId, values) != null,
    () => socket?.welcomed(),
  );
  view.setPublicUrl(mode === "browser" ? publicUrl : null);
  let identity: Identity | null = null;
  let channel: string | null;
  let instance = ""; // inside Discord, the Activity's: its place and people are Discord's word
  let signIn: () => Promise<Identity | null>;

  if (mode === "browser") {
    channel = params.get("channel");
    signIn = async () => null; // an expired browser session only watches, until signed in again
    // Who the session cookie signs in, the socket's welcome says (no request to wait for).
    view.identity(null, channel ? signInUrl(channel) : null);
  } else {
    const { startSdk, signInWithSdk, followLayout, CDN_MAPPING } = await import("./discord"); // the browser page does without it
    const sdk = await startSdk(mode, clientId, params);
    channel = sdk.channelId;
    instance = sdk.instanceId;
    setCdn(`${PROXY}${CDN_MAPPING}/`);
    let following = followLayout(sdk); // Discord may refuse it until the SDK is authenticated
    signIn = async () => {
      const signed = await signInWithSdk(sdk, clientId).catch((error: unknown) => {
        view.note(error instanceof Error ? error.message : String(error));
        return null;
      });
      if (signed && !(await following)) following = followLayout(sdk); // asked again, authenticated
      return signed;
    };
    identity = await signIn();
    view.identity(identity?.user ?? null, null);
  }

  if (!instance && (!channel || !CHANNEL.test(channel))) {
    view.badLink();
    return;
  }
  const where = channel ?? "";
  let refusal: { reason: string; signIn: boolean } | null = null;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const proxy = mode === "browser" ? "" : PROXY;
  socket = new TableSocket(`${scheme}://${location.host}${proxy}/ws`, {
    hello: () => ({
      type: "hello",
      channel: where,
      ...(instance ? { instance } : {}),
      session: identity?.session ?? null, // a browser's: its cookie, sent with the upgrade
      language: guessLanguage(params, config),
    }),
    message: (message) => {
      if (message.type === "welcome") {
        refusal = null;
        view.welcome(message);
      }
      else if (message.type === "state") view.render(message);
      else if (message.type === "result") view.result(message);
      else if (message.type === "refused") {
        refusal = { reason: message.reason, signIn: message.sign_in === true };
        view.note(message.reason);
      }
    },
    // Refused for good (4003): the server said why just before closing.
    link: (link) => (link === "offline" && refusal !== null ? view.refuse(refusal.reason, refusal.signIn) : view.link(link)),
    expired: async () => {
      identity = await signIn();
      if (!identity) view.note(label("signed_out"));
    },
  });
  view.link("connecting");
  socket.connect();
}

void boot();
