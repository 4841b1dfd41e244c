/**
 * `idToken: false`: the profile comes from the userinfo endpoint, not the ID token. The OP here
 * keeps OIDC Core §5.4's reading (scope claims at userinfo only, the ID token carries `sub`), so
 * where the profile came from shows in the session: with an email from userinfo, without from the ID token.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import { customFetch } from "../../../src/symbols.js";
import {
  browser,
  CALLBACK_ERROR,
  expectNoSession,
  loggedErrors,
  oauthConfig,
  oidcProvider,
  recordingFetch,
  setsSession,
  signInThroughOp,
} from "./fixtures.js";
import { idTokenRewriter } from "./forgery.js";

describe("reading the profile from the userinfo endpoint", () => {
  let op: TestProvider;

  beforeAll(async () => {
    op = await startTestProvider({ features: { claimsInIdToken: false } });
  });
  afterAll(() => op.close());

  it("takes the profile from the ID token by default, without calling userinfo", async () => {
    const fetchSpy = recordingFetch();
    const client = browser(oauthConfig([oidcProvider(op, { [customFetch]: fetchSpy })]));
    const callback = await signInThroughOp(op, client);
    expect(setsSession(callback)).toBe(true);
    // This OP's ID token names only the subject.
    const session = (await client.session()) as { user: Record<string, unknown> };
    expect(session.user.email ?? null).toBeNull();
    expect(fetchSpy.urls).not.toContain(`${op.issuer}/me`);
  });

  it("with idToken: false, takes name, email and picture from userinfo, called with the access token", async () => {
    const fetchSpy = recordingFetch();
    const client = browser(oauthConfig([oidcProvider(op, { idToken: false, [customFetch]: fetchSpy })]));
    const callback = await signInThroughOp(op, client, { accountId: "grace" });
    expect(setsSession(callback)).toBe(true);
    expect(await client.session()).toMatchObject({
      user: { name: "Grace Hopper", email: "grace@example.com", image: "https://img.example/grace.png" },
    });
    const userinfo = fetchSpy.requests.find((request) => request.url === `${op.issuer}/me`);
    expect(userinfo?.headers.get("authorization")).toMatch(/^(Bearer|DPoP) \S+/);
  });

  it("with idToken: false, still rejects an ID token whose nonce is wrong", async () => {
    const rewriter = idTokenRewriter(op, (claims) => ({ ...claims, nonce: "not-this-flow" }));
    const config = oauthConfig([oidcProvider(op, { idToken: false, [customFetch]: rewriter })]);
    const client = browser(config);
    const callback = await signInThroughOp(op, client);
    expect(rewriter.rewritten).toBe(1);
    expect(callback.headers.get("location")).toBe(CALLBACK_ERROR);
    await expectNoSession(client, callback);
    expect(loggedErrors(config)).toMatch(/nonce/);
  });

  it("with idToken: false, still rejects an ID token with a forged signature", async () => {
    const rewriter = idTokenRewriter(op, (claims) => claims, "unrelated");
    const config = oauthConfig([oidcProvider(op, { idToken: false, [customFetch]: rewriter })]);
    const client = browser(config);
    const callback = await signInThroughOp(op, client);
    expect(callback.headers.get("location")).toBe(CALLBACK_ERROR);
    await expectNoSession(client, callback);
    expect(loggedErrors(config)).toMatch(/signature/);
  });
});
