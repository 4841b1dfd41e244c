/**
 * The flow's check cookies (PKCE verifier, state, nonce) bind a callback to the browser that
 * started the sign-in and to the provider it started at. Missing, altered, replayed or minted for
 * another provider, they refuse the callback; and every answer to a callback clears them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import {
  browser,
  CALLBACK_ERROR,
  callbackInHand,
  CHECK_COOKIES,
  clearedCheckCookies,
  cookieHeaderOf,
  expectNoSession,
  expectSignedInAs,
  loggedErrors,
  oauthConfig,
  oidcProvider,
  setsSession,
  TWO_PROVIDER_CLIENT,
} from "./fixtures.js";

const ALL_CHECK_COOKIES = Object.values(CHECK_COOKIES).sort();

/** `value` with one character in the middle replaced (a base64url character by another). */
function flipOneCharacter(value: string): string {
  const at = Math.floor(value.length / 2);
  const replacement = value[at] === "A" ? "B" : "A";
  return `${value.slice(0, at)}${replacement}${value.slice(at + 1)}`;
}

describe("the check cookies of the OAuth flow", () => {
  let op: TestProvider;

  beforeAll(async () => {
    op = await startTestProvider({ clients: [TWO_PROVIDER_CLIENT] });
  });
  afterAll(() => op.close());

  const config = () => oauthConfig([oidcProvider(op), oidcProvider(op, { id: "oidc-b", name: "Test OP (B)" })]);

  it("clears every check cookie in a successful callback's response", async () => {
    const client = browser(config());
    const { url } = await callbackInHand(op, client);
    const callback = await client.get(url);
    await expectSignedInAs(client, callback, "ada@example.com");
    expect(clearedCheckCookies(callback)).toEqual(ALL_CHECK_COOKIES);
  });

  it("refuses a replayed callback (same URL, same cookies) and issues no second session", async () => {
    const cfg = config();
    const { url, cookies } = await callbackInHand(op, browser(cfg));
    const first = browser(cfg);
    const firstCallback = await first.get(url, { headers: { cookie: cookieHeaderOf(cookies) } });
    expect(setsSession(firstCallback)).toBe(true);

    const replayer = browser(cfg);
    const replay = await replayer.get(url, { headers: { cookie: cookieHeaderOf(cookies) } });
    expect(replay.headers.get("location")).toBe(CALLBACK_ERROR);
    await expectNoSession(replayer, replay);
    expect(clearedCheckCookies(replay)).toEqual(ALL_CHECK_COOKIES);
  });

  describe.each(Object.entries(CHECK_COOKIES))("the %s cookie", (check, cookieName) => {
    it("refuses the callback when it is missing, and clears the other check cookies", async () => {
      const cfg = config();
      const client = browser(cfg);
      const { url } = await callbackInHand(op, client);
      client.deleteCookie(cookieName);
      const callback = await client.get(url);
      expect(callback.headers.get("location")).toBe(CALLBACK_ERROR);
      await expectNoSession(client, callback);
      expect(loggedErrors(cfg)).toMatch(/missing/);
      expect(clearedCheckCookies(callback)).toEqual(ALL_CHECK_COOKIES.filter((name) => name !== cookieName));
    });

    it("refuses the callback when one character of it is altered, and clears it", async () => {
      const cfg = config();
      const client = browser(cfg);
      const { url, cookies } = await callbackInHand(op, client);
      client.setCookie(cookieName, flipOneCharacter(cookies.get(cookieName)!));
      const callback = await client.get(url);
      expect(callback.headers.get("location")).toBe(CALLBACK_ERROR);
      await expectNoSession(client, callback);
      expect(loggedErrors(cfg)).toMatch(new RegExp(`${check === "pkce" ? "pkceCodeVerifier" : check} check cookie could not be read`));
      expect(clearedCheckCookies(callback)).toEqual(ALL_CHECK_COOKIES);
    });
  });

  it("refuses check cookies minted for provider oidc at provider oidc-b's callback", async () => {
    const cfg = config();
    const client = browser(cfg);
    const { url } = await callbackInHand(op, client, { providerId: "oidc" });
    const atB = url.replace("/callback/oidc?", "/callback/oidc-b?");
    expect(atB).not.toBe(url);
    const callback = await client.get(atB);
    expect(callback.headers.get("location")).toBe(CALLBACK_ERROR);
    await expectNoSession(client, callback);
    expect(loggedErrors(cfg)).toMatch(/minted for another provider/);
    expect(clearedCheckCookies(callback)).toEqual(ALL_CHECK_COOKIES);
  });

  it("refuses a callback of provider oidc-b carrying the cookies of a sign-in started at oidc", async () => {
    const cfg = config();
    // Someone else's genuine callback at B...
    const { url: callbackAtB } = await callbackInHand(op, browser(cfg), { providerId: "oidc-b" });
    // ...delivered to a browser whose sign-in started at A.
    const victim = browser(cfg);
    await callbackInHand(op, victim, { providerId: "oidc" });
    const callback = await victim.get(callbackAtB);
    expect(callback.headers.get("location")).toBe(CALLBACK_ERROR);
    await expectNoSession(victim, callback);
  });

  it("refuses a callback that arrives with no cookies at all", async () => {
    const cfg = config();
    const { url } = await callbackInHand(op, browser(cfg));
    const stranger = browser(cfg);
    const callback = await stranger.get(url);
    expect(callback.headers.get("location")).toBe(CALLBACK_ERROR);
    await expectNoSession(stranger, callback);
  });
});
