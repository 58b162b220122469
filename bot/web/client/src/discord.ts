// Signing in inside Discord: the Embedded App SDK (or, in a test build, its mock); loaded only in those modes.
import { DiscordSDK, DiscordSDKMock, type IDiscordSDK } from "@discord/embedded-app-sdk";
import type { User } from "./protocol";
import { MOCK_SDK, PROXY, type Identity } from "./signin";

/** The SDK, ready: Discord's own, or (test builds only) its mock whose authorize answers ?code=
 * and whose instance is ?instance= (none: "", and the page names only its channel). */
export async function startSdk(
  mode: "activity" | "mock",
  clientId: string,
  params: URLSearchParams,
): Promise<IDiscordSDK> {
  if (MOCK_SDK && mode === "mock") {
    // Dead code in a production build, where the mock is left out altogether.
    const mock = new DiscordSDKMock(
      clientId,
      params.get("guild"),
      params.get("channel"),
      params.get("location"),
    );
    const code = params.get("code") ?? "";
    mock._updateCommandMocks({ authorize: async () => ({ code }) });
    (mock as { instanceId: string }).instanceId = params.get("instance") ?? "";
    if (params.get("layout") === "after-sign-in") refuseLayoutUntilAuthenticated(mock);
    (window as { __apophisSdk?: DiscordSDKMock }).__apophisSdk = mock; // the tests emit its events
    return mock;
  }
  const sdk = new DiscordSDK(clientId);
  await sdk.ready();
  return sdk;
}

/** The mock refuses the layout's subscription until the SDK is authenticated, as a
 * Discord client may (test builds only). */
function refuseLayoutUntilAuthenticated(mock: DiscordSDKMock): void {
  let authenticated = false;
  const { authenticate } = mock.commands;
  mock.commands.authenticate = async (args) => {
    const answer = await authenticate(args);
    authenticated = true;
    return answer;
  };
  const subscribe = mock.subscribe.bind(mock);
  mock.subscribe = (async (...args: Parameters<typeof subscribe>) => {
    if (!authenticated) throw new Error("not authenticated");
    return subscribe(...args);
  }) as typeof mock.subscribe;
}

/** Authorize in Discord, trade the code for a session at our server, authenticate the SDK. */
export async function signInWithSdk(sdk: IDiscordSDK, clientId: string): Promise<Identity> {
  const { code } = await sdk.commands.authorize({
    client_id: clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  // Inside Discord, requests to our server go through Discord's proxy, under /.proxy/.
  const answer = await fetch(`${PROXY}/api/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code }),
  });
  const body = (await answer.json()) as {
    access_token?: string;
    session?: string;
    user?: User;
    error?: string;
  };
  if (!answer.ok || !body.access_token || !body.session || !body.user) {
    throw new Error(body.error ?? `sign-in refused (${answer.status})`);
  }
  await sdk.commands.authenticate({ access_token: body.access_token });
  return { session: body.session, user: body.user };
}

/** Where the Activity reaches Discord's CDN for the players' pictures: a URL mapping of the
 * app's (Developer Portal, Activities, URL Mappings: this prefix to cdn.discordapp.com). */
export const CDN_MAPPING = "/discord-cdn";

/** Discord's layout modes for an Activity, as the page's `data-layout`. */
const LAYOUTS: Record<number, string> = { 0: "focused", 1: "pip", 2: "grid" };

/** Follow the Activity's layout (focused, picture-in-picture, grid): the page's CSS lays
 * out each (in picture-in-picture, only the countdown, whose turn and your hand). True once
 * subscribed; false if Discord refused (before the SDK is authenticated: ask again after;
 * an older client without layout modes keeps the focused layout it always shows). */
export async function followLayout(sdk: IDiscordSDK): Promise<boolean> {
  const follow = (event: { layout_mode: number }): void => {
    document.body.dataset.layout = LAYOUTS[event.layout_mode] ?? "focused";
  };
  return sdk.subscribe("ACTIVITY_LAYOUT_MODE_UPDATE", follow).then(
    () => true,
    () => false,
  );
}
