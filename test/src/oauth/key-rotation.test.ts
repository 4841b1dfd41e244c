/**
 * The OpenID Provider rotates its signing keys (the certification's rp-key-rotation-op-sign-key):
 * the next ID token names a key the cached JWKS lacks, and it signs in at once, after one fetch of
 * the provider's JWKS. Tokens under keys the provider never published are refused, and however many
 * arrive, they make the JWKS be fetched at most once per few seconds. Every JWKS fetch goes through
 * the provider's [customFetch], which counts them; the OP and its rotation are real.
 */
import { randomUUID } from "node:crypto";
import { decodeJwt, decodeProtectedHeader, generateKeyPair, SignJWT } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { UNKNOWN_KEY_REFETCH_INTERVAL_MS } from "../../../src/oauth/jwks.js";
import type { ProviderFetch } from "../../../src/providers/oauth-types.js";
import { customFetch } from "../../../src/symbols.js";
import { startTestProvider, type AuthorizationOutcome, type TestProvider } from "../../helpers/oidc-provider.js";
import {
  authorizeAt,
  browser,
  CALLBACK_ERROR,
  deliver,
  discover,
  expectNoSession,
  expectSignedInAs,
  oauthConfig,
  jwksCountingFetch,
  oidcProvider,
  signInThroughOp,
} from "./fixtures.js";

let op: TestProvider;
let jwksUri: string;

beforeAll(async () => {
  op = await startTestProvider();
  jwksUri = (await discover(op)).jwks_uri;
});
afterAll(() => op.close());
afterEach(() => {
  vi.useRealTimers();
});

/** A provider at the OP whose JWKS answers are counted (`jwksFetches()`); `through` may alter what the OP answers. */
function countingSetup(through?: ProviderFetch) {
  const fetcher = jwksCountingFetch(jwksUri, through);
  const config = oauthConfig([oidcProvider(op, { [customFetch]: fetcher })]);
  return { config, jwksFetches: () => fetcher.jwksAnswers };
}

/**
 * A fetch that passes everything to the real OP but re-signs the token endpoint's ID token with a
 * key of the attacker's own, under a `kid` nobody published (a new one each time).
 */
const attackerKeyFetch: ProviderFetch = async (input, init) => {
  const request = new Request(input, init);
  const response = await fetch(request);
  if (request.url !== `${op.issuer}/token` || !response.ok) return response;
  const body = (await response.json()) as { id_token: string };
  const { privateKey } = await generateKeyPair("RS256");
  const header = { ...decodeProtectedHeader(body.id_token), alg: "RS256", kid: `attacker-${randomUUID()}` };
  body.id_token = await new SignJWT(decodeJwt(body.id_token)).setProtectedHeader(header).sign(privateKey);
  return Response.json(body);
};

/** `count` browsers go through the OP one by one, then all return to the callback at the same moment. */
async function callbacksTogether(config: ReturnType<typeof countingSetup>["config"], count: number) {
  const browsers = Array.from({ length: count }, () => browser(config));
  const outcomes: AuthorizationOutcome[] = [];
  for (const client of browsers) outcomes.push(await authorizeAt(op, client));
  const answers = await Promise.all(browsers.map((client, i) => deliver(client, outcomes[i]!)));
  return browsers.map((client, i) => ({ client, answer: answers[i]! }));
}

describe("ID tokens after the OpenID Provider rotates its signing keys", () => {
  it("sign in at once, with one more fetch of the provider's JWKS", async () => {
    const { config, jwksFetches } = countingSetup();
    const before = browser(config);
    await expectSignedInAs(before, await signInThroughOp(op, before), "ada@example.com");
    expect(jwksFetches()).toBe(1);

    op.rotateSigningKeys();
    const after = browser(config);
    await expectSignedInAs(after, await signInThroughOp(op, after), "ada@example.com");
    expect(jwksFetches()).toBe(2);

    // The new keys are cached now: the next sign-in fetches nothing.
    const again = browser(config);
    await expectSignedInAs(again, await signInThroughOp(op, again), "ada@example.com");
    expect(jwksFetches()).toBe(2);
  });

  it("sign in when many callbacks arrive together, all sharing one JWKS fetch", async () => {
    const { config, jwksFetches } = countingSetup();
    const first = browser(config);
    await expectSignedInAs(first, await signInThroughOp(op, first), "ada@example.com");

    op.rotateSigningKeys();
    for (const { client, answer } of await callbacksTogether(config, 6)) await expectSignedInAs(client, answer, "ada@example.com");
    expect(jwksFetches()).toBe(2);
  });
});

describe("ID tokens signed with a key the provider never published", () => {
  it("are refused, and a flood of them fetches the JWKS at most once per interval", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const { config, jwksFetches } = countingSetup(attackerKeyFetch);

    // The first one: the keys are fetched, then fetched once more for its unknown kid; refused.
    const victim = browser(config);
    const refused = await signInThroughOp(op, victim);
    expect(refused.headers.get("location")).toBe(CALLBACK_ERROR);
    await expectNoSession(victim, refused);
    expect(jwksFetches()).toBe(2);

    // More of them, one after another and many at once, within the interval: refused, no fetch.
    const more = browser(config);
    await expectNoSession(more, await signInThroughOp(op, more));
    for (const { answer } of await callbacksTogether(config, 5)) expect(answer.headers.get("location")).toBe(CALLBACK_ERROR);
    expect(jwksFetches()).toBe(2);

    // Once the interval has passed, an unknown kid may fetch again: one fetch, still refused.
    vi.advanceTimersByTime(UNKNOWN_KEY_REFETCH_INTERVAL_MS + 1);
    const later = browser(config);
    await expectNoSession(later, await signInThroughOp(op, later));
    expect(jwksFetches()).toBe(3);
  });
});
