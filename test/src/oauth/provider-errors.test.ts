/**
 * What the OP says goes wrong, and what an attacker changes in its answer: a refusal at the OP,
 * a code the OP will not exchange, an `iss` (RFC 9207) that names another issuer. Each ends on the
 * sign-in page with `OAuthCallbackError` and no session.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import {
  authorizeAt,
  browser,
  CALLBACK_ERROR,
  callbackInHand,
  clearedCheckCookies,
  cookieHeaderOf,
  deliver,
  expectNoSession,
  loggedErrors,
  oauthConfig,
  oidcProvider,
  setsSession,
} from "./fixtures.js";

function withParam(url: string, name: string, value: string | undefined): string {
  const changed = new URL(url);
  if (value === undefined) changed.searchParams.delete(name);
  else changed.searchParams.set(name, value);
  return changed.href;
}

describe("errors and refusals from the OP", () => {
  let op: TestProvider;

  beforeAll(async () => {
    op = await startTestProvider();
  });
  afterAll(() => op.close());

  it("refuses without a session when the person denies access at the OP (error=access_denied)", async () => {
    const config = oauthConfig([oidcProvider(op)]);
    const client = browser(config);
    const back = await authorizeAt(op, client, { deny: true });
    expect(new URL(back.url).searchParams.get("error")).toBe("access_denied");
    const callback = await deliver(client, back);
    // A cancel, said as one: the page reads the code and words it as a choice, not a failure.
    expect(callback.headers.get("location")).toBe(`${CALLBACK_ERROR}&code=access_denied`);
    await expectNoSession(client, callback);
    expect(loggedErrors(config)).toBe("");
    expect(config.logger.entries.filter((e) => e.level === "warn").map((e) => `${e.code}: ${String(e.message[0])}`)).toEqual([
      expect.stringMatching(/^OAuthCallbackError: .*access_denied/),
    ]);
    expect(clearedCheckCookies(callback)).toHaveLength(3);
  });

  it("refuses without a session when the OP answers invalid_grant for a code already used", async () => {
    const config = oauthConfig([oidcProvider(op)]);
    const { url, cookies } = await callbackInHand(op, browser(config));
    const first = await browser(config).get(url, { headers: { cookie: cookieHeaderOf(cookies) } });
    expect(setsSession(first)).toBe(true);
    const exchangesBefore = op.grants.authorization_code ?? 0;

    const client = browser(config);
    const again = await client.get(url, { headers: { cookie: cookieHeaderOf(cookies) } });
    // The checks all passed: it was the OP that refused the code.
    expect(op.grants.authorization_code).toBe(exchangesBefore + 1);
    expect(again.headers.get("location")).toBe(CALLBACK_ERROR);
    await expectNoSession(client, again);
    expect(loggedErrors(config)).toMatch(/invalid_grant/);
  });

  it("refuses a callback whose iss names another issuer, before the code is exchanged", async () => {
    const config = oauthConfig([oidcProvider(op)]);
    const client = browser(config);
    const { url } = await callbackInHand(op, client);
    const exchangesBefore = op.grants.authorization_code ?? 0;
    const callback = await client.get(withParam(url, "iss", "https://attacker.example"));
    expect(callback.headers.get("location")).toBe(CALLBACK_ERROR);
    await expectNoSession(client, callback);
    expect(op.grants.authorization_code ?? 0).toBe(exchangesBefore);
    expect(loggedErrors(config)).toMatch(/iss/);
  });

  it("refuses a callback without iss from an OP that announces it sends one", async () => {
    const config = oauthConfig([oidcProvider(op)]);
    const client = browser(config);
    const { url } = await callbackInHand(op, client);
    const callback = await client.get(withParam(url, "iss", undefined));
    expect(callback.headers.get("location")).toBe(CALLBACK_ERROR);
    await expectNoSession(client, callback);
  });

  it("refuses a callback whose state is not the one the flow sent", async () => {
    const config = oauthConfig([oidcProvider(op)]);
    const client = browser(config);
    const { url } = await callbackInHand(op, client);
    const callback = await client.get(withParam(url, "state", "a-state-from-another-flow"));
    expect(callback.headers.get("location")).toBe(CALLBACK_ERROR);
    await expectNoSession(client, callback);
    expect(loggedErrors(config)).toMatch(/state/);
  });

  it("refuses a callback whose code was not issued by the OP", async () => {
    const config = oauthConfig([oidcProvider(op)]);
    const client = browser(config);
    const { url } = await callbackInHand(op, client);
    const callback = await client.get(withParam(url, "code", "a-code-the-op-never-issued"));
    expect(callback.headers.get("location")).toBe(CALLBACK_ERROR);
    await expectNoSession(client, callback);
    expect(loggedErrors(config)).toMatch(/invalid_grant/);
  });
});
