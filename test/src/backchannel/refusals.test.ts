/**
 * What back-channel logout refuses (§2.6, fail closed): every token here would end Ada's sessions if
 * it were accepted — it names her `sub` and `sid` and is otherwise valid — so each refusal is checked
 * both in the answer (400 `invalid_request`, never cached) and in the store (her sessions live on).
 */
import { generateKeyPairSync, randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BASE_URL } from "../../helpers/config.js";
import { PUBLIC_CLIENT, startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import { TestClient } from "../../helpers/test-client.js";
import type { JWK } from "jose";
import {
  BACKCHANNEL_CLIENT,
  BACKCHANNEL_EVENT,
  backchannelSetup,
  expectLoggedOut,
  expectRefused,
  logoutClaims,
  logoutToken,
  now,
  postLogoutToken,
  signedIn,
  signLogoutToken,
  stillSignedIn,
  type Setup,
  type Signing,
  type SignedIn,
} from "./fixtures.js";

let op: TestProvider;
let setup: Setup;
let ada: SignedIn;
let grace: SignedIn;
const idTokens: string[] = [];

beforeAll(async () => {
  op = await startTestProvider({ clients: [BACKCHANNEL_CLIENT, { ...PUBLIC_CLIENT, redirect_uris: [`${BASE_URL}/callback/public`] }] });
  setup = backchannelSetup(op, {
    config: {
      events: {
        signIn: ({ account }) => {
          if (typeof account?.id_token === "string") idTokens.push(account.id_token);
        },
      },
    },
  });
  ada = await signedIn(op, setup);
  grace = await signedIn(op, setup, "grace");
});
afterAll(() => op.close());

// A test that wrongly ended a session has failed already: the next one starts signed in again.
beforeEach(async () => {
  if (!(await stillSignedIn(ada))) ada = await signedIn(op, setup);
  if (!(await stillSignedIn(grace))) grace = await signedIn(op, setup, "grace");
});

// Nothing a refused request carries may end a session.
afterEach(async () => {
  expect(await stillSignedIn(ada)).toBe(true);
  expect(await stillSignedIn(grace)).toBe(true);
});

/** A private RS256 key the OP never had; with `kid`, one that claims to be the OP's. */
function forgedKey(kid = `forged-${randomUUID()}`): JWK {
  const jwk = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" });
  return { ...jwk, kid, alg: "RS256" } as JWK;
}

const unsecured = (claims: Record<string, unknown>, header: Record<string, unknown> = { alg: "none", typ: "logout+jwt" }) =>
  `${Buffer.from(JSON.stringify(header)).toString("base64url")}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.`;

/** Ada's claims (sub and sid), with `change` over them. */
const adas = (change: Record<string, unknown> = {}) => ({ sub: "ada", sid: ada.session.providerSessionId, ...change });

describe("POST /backchannel-logout/:provider refuses a logout token", () => {
  const refusedTokens: Array<[string, () => Record<string, unknown>, Signing | (() => Signing), RegExp]> = [
    ["signed by a key the OP does not have, under the OP's kid", () => adas(), () => ({ key: forgedKey(op.signingKeys[0]!.kid) }), /signature/],
    ["signed by a key the OP does not have, under an unknown kid", () => adas(), () => ({ key: forgedKey() }), /key/i],
    ["from another issuer", () => adas({ iss: "https://op.attacker.example" }), {}, /iss/],
    ["from the issuer with a trailing slash", () => adas({ iss: `${op.issuer}/` }), {}, /iss/],
    ["for another client", () => adas({ aud: "another-client" }), {}, /aud/],
    ["with no aud", () => adas({ aud: undefined }), {}, /aud/],
    ["without events", () => adas({ events: undefined }), {}, /events/],
    ["whose events lack the back-channel logout member", () => adas({ events: { "http://schemas.openid.net/event/other": {} } }), {}, /events/],
    ["whose back-channel logout event is not an object", () => adas({ events: { [BACKCHANNEL_EVENT]: true } }), {}, /events/],
    ["whose events is an array", () => adas({ events: [BACKCHANNEL_EVENT] }), {}, /events/],
    ["with a nonce", () => adas({ nonce: "n-0S6_WzA2Mj" }), {}, /nonce/],
    ["naming neither sub nor sid", () => adas({ sub: undefined, sid: undefined }), {}, /neither sub nor sid/],
    ["whose sub is not a string", () => adas({ sub: 42 }), {}, /sub/],
    ["whose sid is not a string", () => adas({ sid: ["a"] }), {}, /sid/],
    ["issued longer ago than maxAge (120 s) and the skew allow", () => adas({ iat: now() - 140, exp: now() + 60 }), {}, /iat/],
    ["issued in the future beyond the skew", () => adas({ iat: now() + 60 }), {}, /iat/],
    ["without iat", () => adas({ iat: undefined }), {}, /iat/],
    ["that has expired", () => adas({ iat: now() - 60, exp: now() - 30 }), {}, /exp/],
    ["without jti", () => adas({ jti: undefined }), {}, /jti/],
    ["with an empty jti", () => adas({ jti: "" }), {}, /jti/],
    ["typed as another kind of JWT", () => adas(), { header: { typ: "JWT" } }, /typ/],
    ["signed with HS256 under a secret other than the client's", () => adas(), { key: { kty: "oct", k: Buffer.from("not-the-client-secret-0123456789abcdef").toString("base64url"), alg: "HS256" } }, /signature/],
    ["signed with an algorithm the OP does not list (RS384)", () => adas(), () => ({ key: { ...op.signingKeys[0]!, alg: "RS384" } as JWK }), /alg/],
  ];

  for (const [what, claims, signing, reason] of refusedTokens) {
    it(what, async () => {
      const token = await signLogoutToken(op, logoutClaims(op, claims()), typeof signing === "function" ? signing() : signing);
      await expectRefused(await postLogoutToken(setup.config, token), reason);
    });
  }

  it("that is unsigned (alg none), however well its claims are formed", async () => {
    await expectRefused(await postLogoutToken(setup.config, unsecured(logoutClaims(op, adas()))), /alg/);
    await expectRefused(await postLogoutToken(setup.config, unsecured(logoutClaims(op, adas()), { alg: "NONE" })), /alg/);
  });

  it("that is the OP's genuine ID token (cross-JWT confusion)", async () => {
    expect(idTokens.length).toBeGreaterThan(0);
    await expectRefused(await postLogoutToken(setup.config, idTokens[0]!));
  });

  it("signed with HS256 for a provider that has no client secret", async () => {
    const publicSetup = backchannelSetup(op, {
      oidc: { clientId: PUBLIC_CLIENT.client_id, clientSecret: undefined, client: { token_endpoint_auth_method: "none" } },
      adapter: setup.adapter,
    });
    const secret = { kty: "oct", k: Buffer.from("whatever-secret-0123456789abcdefghij").toString("base64url"), alg: "HS256" };
    const token = await logoutToken(op, adas({ aud: PUBLIC_CLIENT.client_id }), { key: secret });
    await expectRefused(await postLogoutToken(publicSetup.config, token), /alg/);
  });

  for (const [what, token] of [
    ["that is not a JWT", "not-a-jwt"],
    ["of two parts", "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhZGEifQ"],
    ["shaped like an encrypted JWT", "eyJhbGciOiJSU0EtT0FFUCIsImVuYyI6IkEyNTZHQ00ifQ.a.b.c.d"],
    ["whose header is not JSON", `${Buffer.from("{not json").toString("base64url")}.e30.c2ln`],
  ] as const) {
    it(what, async () => {
      await expectRefused(await postLogoutToken(setup.config, token));
    });
  }

  it("that was already used, and still refuses it after the person signed in again (replay)", async () => {
    const replaySetup = backchannelSetup(op);
    const first = await signedIn(op, replaySetup);
    const token = await logoutToken(op, { sub: "ada" });
    await expectLoggedOut(await postLogoutToken(replaySetup.config, token));
    expect(await stillSignedIn(first)).toBe(false);

    const again = await signedIn(op, replaySetup);
    await expectRefused(await postLogoutToken(replaySetup.config, token), /already used/);
    expect(await stillSignedIn(again)).toBe(true);
    // Another token under the same jti is the same token to the store.
    const sameJti = await logoutToken(op, { sub: "ada", jti: JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()).jti });
    await expectRefused(await postLogoutToken(replaySetup.config, sameJti), /already used/);
    expect(await stillSignedIn(again)).toBe(true);
  });
});

describe("POST /backchannel-logout/:provider refuses a request", () => {
  const url = "/backchannel-logout/oidc";
  const client = () => new TestClient(setup.config);

  it("that is a GET, with 400", async () => {
    const response = await client().get(`${url}?logout_token=${await logoutToken(op, adas())}`);
    expect(response.status).toBe(400);
  });

  it("whose body is JSON", async () => {
    await expectRefused(await client().postJson(url, { logout_token: await logoutToken(op, adas()) }, { withCookies: false }), /x-www-form-urlencoded/);
  });

  it("whose body is text/plain", async () => {
    const body = new URLSearchParams({ logout_token: await logoutToken(op, adas()) }).toString();
    await expectRefused(await client().request("POST", url, { headers: { "content-type": "text/plain" }, body, withCookies: false }), /x-www-form-urlencoded/);
  });

  it("without a logout_token", async () => {
    await expectRefused(await client().post(url, { token: await logoutToken(op, adas()) }, { withCookies: false }), /logout_token/);
  });

  it("with logout_token sent twice (two valid tokens: neither is picked), and ends nothing", async () => {
    const ada = await signedIn(op, setup);
    const body = new URLSearchParams([
      ["logout_token", await logoutToken(op, adas())],
      ["logout_token", await logoutToken(op, adas())],
    ]).toString();
    const headers = { "content-type": "application/x-www-form-urlencoded" };
    await expectRefused(await client().request("POST", url, { headers, body, withCookies: false }), /logout_token/);
    expect(await stillSignedIn(ada)).toBe(true);
  });

  it("with an empty body", async () => {
    await expectRefused(await client().post(url, {}, { withCookies: false }), /logout_token/);
  });

  it("larger than the body limit, with 413 rather than a crash", async () => {
    const token = await logoutToken(op, adas());
    const body = `logout_token=${token}&padding=${"x".repeat(1024 * 1024 + 1)}`;
    const response = await client().request("POST", url, {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
      withCookies: false,
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: "PayloadTooLarge" });
    expect(await stillSignedIn(ada)).toBe(true);
  });

  it("to a provider that does not accept back-channel logout", async () => {
    const optedOut = backchannelSetup(op, { oidc: { backchannelLogout: false }, adapter: setup.adapter });
    await expectRefused(await postLogoutToken(optedOut.config, await logoutToken(op, adas())), /does not accept back-channel logout/);
  });

  it("to a provider that is not configured, with 404", async () => {
    const response = await postLogoutToken(setup.config, await logoutToken(op, adas()), "nobody");
    expect(response.status).toBe(404);
  });
});
