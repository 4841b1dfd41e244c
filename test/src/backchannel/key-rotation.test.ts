/**
 * The provider's keys for logout tokens: cached, fetched again once when a token names a key the
 * cached set lacks (the OP rotated its keys), but not more often than every 30 seconds, so tokens
 * with made-up kids cannot make the server hammer the OP. The JWKS here is served through the
 * provider's [customFetch], so a test can rotate it; discovery and everything else is the real OP's.
 */
import { generateKeyPairSync, randomUUID } from "node:crypto";
import type { JWK } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import { customFetch } from "../../../src/symbols.js";
import { discover } from "../oauth/fixtures.js";
import { BACKCHANNEL_CLIENT, backchannelSetup, expectLoggedOut, expectRefused, logoutToken, postLogoutToken } from "./fixtures.js";

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

function rsaKey(): JWK & { kid: string } {
  const jwk = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" });
  return { ...jwk, kid: `rotated-${randomUUID()}`, alg: "RS256", use: "sig" } as JWK & { kid: string };
}

function publicPart({ d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...rest }: JWK): JWK {
  return rest;
}

/** A provider whose JWKS is `published` (changeable), counting its fetches. */
function rotatingKeys(initial: JWK[]) {
  const keys = { published: initial.map(publicPart), fetches: 0 };
  const fetcher = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    if (url !== jwksUri) return fetch(input, init);
    keys.fetches++;
    return Promise.resolve(Response.json({ keys: keys.published }));
  };
  return { keys, setup: backchannelSetup(op, { oidc: { [customFetch]: fetcher } }) };
}

describe("the keys logout tokens are checked with", () => {
  it("are fetched again once for a key the cached set lacks, at most every 30 seconds", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const [first, second] = [rsaKey(), rsaKey()];
    const { keys, setup } = rotatingKeys([first]);

    await expectLoggedOut(await postLogoutToken(setup.config, await logoutToken(op, { sub: "ada" }, { key: first })));
    expect(keys.fetches).toBe(1);

    // The OP rotates; a token under the new key right after the last fetch is refused without a fetch.
    keys.published = [publicPart(second)];
    await expectRefused(await postLogoutToken(setup.config, await logoutToken(op, { sub: "ada" }, { key: second })), /key/i);
    expect(keys.fetches).toBe(1);

    vi.advanceTimersByTime(31_000);
    await expectLoggedOut(await postLogoutToken(setup.config, await logoutToken(op, { sub: "ada" }, { key: second })));
    expect(keys.fetches).toBe(2);

    // Unknown kids: within the cooldown no fetch; after it, one fetch per token, not a retry loop.
    const stranger = rsaKey();
    await expectRefused(await postLogoutToken(setup.config, await logoutToken(op, { sub: "ada" }, { key: stranger })));
    expect(keys.fetches).toBe(2);
    vi.advanceTimersByTime(31_000);
    await expectRefused(await postLogoutToken(setup.config, await logoutToken(op, { sub: "ada" }, { key: stranger })));
    expect(keys.fetches).toBe(3);
  });

  it("are fetched again when the cached set is older than five minutes", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const key = rsaKey();
    const { keys, setup } = rotatingKeys([key]);
    await expectLoggedOut(await postLogoutToken(setup.config, await logoutToken(op, { sub: "ada" }, { key })));
    await expectLoggedOut(await postLogoutToken(setup.config, await logoutToken(op, { sub: "ada" }, { key })));
    expect(keys.fetches).toBe(1);
    vi.advanceTimersByTime(301_000);
    await expectLoggedOut(await postLogoutToken(setup.config, await logoutToken(op, { sub: "ada" }, { key })));
    expect(keys.fetches).toBe(2);
  });
});
