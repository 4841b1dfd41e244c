/**
 * The provider's keys for logout tokens: the key set ID tokens are checked with, fetched again at
 * once when a token names a key the cached set lacks (the OP rotated its keys), so the first logout
 * token under a rotated key is accepted. Tokens under keys nobody published are refused and fetch the
 * JWKS at most once per few seconds, concurrent ones sharing that fetch. The OP and its rotation are
 * real; the provider's [customFetch] counts the JWKS fetches.
 */
import { generateKeyPairSync, randomUUID } from "node:crypto";
import type { JWK } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { UNKNOWN_KEY_REFETCH_INTERVAL_MS } from "../../../src/oauth/jwks.js";
import { customFetch } from "../../../src/symbols.js";
import { startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import { discover, jwksCountingFetch } from "../oauth/fixtures.js";
import {
  BACKCHANNEL_CLIENT,
  backchannelSetup,
  expectLoggedOut,
  expectRefused,
  logoutToken,
  postLogoutToken,
  signedIn,
  stillSignedIn,
} from "./fixtures.js";

let op: TestProvider;
let jwksUri: string;

beforeAll(async () => {
  op = await startTestProvider({ clients: [BACKCHANNEL_CLIENT] });
  jwksUri = (await discover(op)).jwks_uri;
});
afterAll(() => op.close());
afterEach(() => {
  vi.useRealTimers();
});

/** A key the OP never published, under a kid of its own. */
function strangerKey(): JWK & { kid: string } {
  const jwk = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" });
  return { ...jwk, kid: `stranger-${randomUUID()}`, alg: "RS256", use: "sig" } as JWK & { kid: string };
}

/** Database sessions at the OP; `jwksFetches()` counts the JWKS answers the provider gave. */
function countingSetup() {
  const fetcher = jwksCountingFetch(jwksUri);
  const setup = backchannelSetup(op, { oidc: { [customFetch]: fetcher } });
  return { setup, jwksFetches: () => fetcher.jwksAnswers };
}

describe("the keys logout tokens are checked with", () => {
  it("take the OP's rotated key at once: its first logout token ends the session, after one more JWKS fetch", async () => {
    const { setup, jwksFetches } = countingSetup();
    const ada = await signedIn(op, setup);
    expect(jwksFetches()).toBe(1);

    op.rotateSigningKeys();
    await expectLoggedOut(await postLogoutToken(setup.config, await logoutToken(op, { sub: "ada" })));
    expect(await stillSignedIn(ada)).toBe(false);
    expect(jwksFetches()).toBe(2);

    await expectLoggedOut(await postLogoutToken(setup.config, await logoutToken(op, { sub: "ada" })));
    expect(jwksFetches()).toBe(2);
  });

  it("share one JWKS fetch among logout tokens that arrive together under a rotated key", async () => {
    const { setup, jwksFetches } = countingSetup();
    const ada = await signedIn(op, setup);
    op.rotateSigningKeys();
    const tokens = await Promise.all(Array.from({ length: 6 }, () => logoutToken(op, { sub: "ada" })));
    const answers = await Promise.all(tokens.map((token) => postLogoutToken(setup.config, token)));
    for (const answer of answers) await expectLoggedOut(answer);
    expect(await stillSignedIn(ada)).toBe(false);
    expect(jwksFetches()).toBe(2);
  });

  it("refuse tokens under a key nobody published, fetching the JWKS at most once per interval however many come", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const { setup, jwksFetches } = countingSetup();
    const ada = await signedIn(op, setup);
    expect(jwksFetches()).toBe(1);

    await expectRefused(await postLogoutToken(setup.config, await logoutToken(op, { sub: "ada" }, { key: strangerKey() })), /key/i);
    expect(jwksFetches()).toBe(2);

    const flood = await Promise.all(Array.from({ length: 8 }, () => logoutToken(op, { sub: "ada" }, { key: strangerKey() })));
    for (const answer of await Promise.all(flood.map((token) => postLogoutToken(setup.config, token)))) await expectRefused(answer);
    await expectRefused(await postLogoutToken(setup.config, flood[0]!));
    expect(jwksFetches()).toBe(2);

    vi.advanceTimersByTime(UNKNOWN_KEY_REFETCH_INTERVAL_MS + 1);
    await expectRefused(await postLogoutToken(setup.config, await logoutToken(op, { sub: "ada" }, { key: strangerKey() })));
    expect(jwksFetches()).toBe(3);
    expect(await stillSignedIn(ada)).toBe(true);
  });

  it("are fetched again when the cached set is older than five minutes", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const { setup, jwksFetches } = countingSetup();
    await signedIn(op, setup);
    await expectLoggedOut(await postLogoutToken(setup.config, await logoutToken(op, { sub: "ada" })));
    expect(jwksFetches()).toBe(1);
    vi.advanceTimersByTime(301_000);
    await expectLoggedOut(await postLogoutToken(setup.config, await logoutToken(op, { sub: "ada" })));
    expect(jwksFetches()).toBe(2);
  });
});
