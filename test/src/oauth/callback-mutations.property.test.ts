/**
 * A property over genuine callbacks from the real OP: change any one thing in a valid callback —
 * a query parameter changed, removed or added, one character of code/state/iss, or one check
 * cookie dropped or altered — and no session comes out of it, and never a 5xx. Each run needs a
 * fresh authorization at the OP, so the run count stays modest; the seed is fixed.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { propertyOptions } from "../../helpers/property.js";
import { startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import type { TestConfig } from "../../helpers/config.js";
import type { TestClient } from "../../helpers/test-client.js";
import { browser, callbackInHand, CHECK_COOKIES, expectSignedInAs, oauthConfig, oidcProvider, setsSession } from "./fixtures.js";

const PARAMS = ["code", "state", "iss"] as const;
const COOKIES = Object.values(CHECK_COOKIES);
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

type Mutation =
  | { kind: "replaceParam"; name: (typeof PARAMS)[number]; value: string }
  | { kind: "removeParam"; name: (typeof PARAMS)[number] }
  | { kind: "addParam"; name: "error" | "response" | "id_token" | (typeof PARAMS)[number]; value: string }
  | { kind: "changeParamCharacter"; name: (typeof PARAMS)[number]; index: number; shift: number }
  | { kind: "dropCookie"; name: string }
  | { kind: "changeCookieCharacter"; name: string; index: number; shift: number };

const shift = fc.integer({ min: 1, max: BASE64URL.length - 1 });

const mutations: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("replaceParam" as const), name: fc.constantFrom(...PARAMS), value: fc.string({ maxLength: 48 }) }),
  fc.record({ kind: fc.constant("removeParam" as const), name: fc.constantFrom(...PARAMS) }),
  // Only parameters that mean something to a code-flow callback: an unknown extra one is rightly ignored.
  fc.record({
    kind: fc.constant("addParam" as const),
    name: fc.constantFrom("error", "response", "id_token", ...PARAMS),
    value: fc.string({ minLength: 1, maxLength: 48 }),
  }),
  fc.record({ kind: fc.constant("changeParamCharacter" as const), name: fc.constantFrom(...PARAMS), index: fc.nat(), shift }),
  fc.record({ kind: fc.constant("dropCookie" as const), name: fc.constantFrom(...COOKIES) }),
  fc.record({ kind: fc.constant("changeCookieCharacter" as const), name: fc.constantFrom(...COOKIES), index: fc.nat(), shift }),
);

/** `value` with the character at `at` replaced by another base64url character (`shift` places further on). */
function changeCharacter(value: string, at: number, by: number): string {
  const from = BASE64URL.indexOf(value[at]!);
  const to = BASE64URL[(from + by + BASE64URL.length) % BASE64URL.length]!;
  return `${value.slice(0, at)}${to}${value.slice(at + 1)}`;
}

/**
 * Positions in a compact JWE whose change alters the bytes it encodes: not a dot, and not the last
 * character of a segment (whose low bits may be padding that decoders ignore).
 */
function significantPositions(jwe: string): number[] {
  const positions: number[] = [];
  for (let i = 0; i < jwe.length; i++) {
    const last = i === jwe.length - 1 || jwe[i + 1] === ".";
    if (jwe[i] !== "." && !last) positions.push(i);
  }
  return positions;
}

/** Applies `mutation` to the callback URL or the browser's cookies; the URL to request. */
function mutate(url: string, client: TestClient, mutation: Mutation): string {
  const changed = new URL(url);
  const params = changed.searchParams;
  switch (mutation.kind) {
    case "replaceParam":
      params.set(mutation.name, mutation.value);
      break;
    case "removeParam":
      params.delete(mutation.name);
      break;
    case "addParam":
      params.append(mutation.name, mutation.value);
      break;
    case "changeParamCharacter": {
      const value = params.get(mutation.name)!;
      params.set(mutation.name, changeCharacter(value, mutation.index % value.length, mutation.shift));
      break;
    }
    case "dropCookie":
      client.deleteCookie(mutation.name);
      break;
    case "changeCookieCharacter": {
      const value = client.cookie(mutation.name)!;
      const positions = significantPositions(value);
      client.setCookie(mutation.name, changeCharacter(value, positions[mutation.index % positions.length]!, mutation.shift));
      break;
    }
  }
  return changed.href;
}

describe("a valid callback changed in any one way", () => {
  let op: TestProvider;
  let config: TestConfig;

  beforeAll(async () => {
    op = await startTestProvider();
    config = oauthConfig([oidcProvider(op)]);
  });
  afterAll(() => op.close());

  it("signs in when nothing is changed (the property's starting point is a working callback)", async () => {
    const client = browser(config);
    const { url } = await callbackInHand(op, client);
    await expectSignedInAs(client, await client.get(url), "ada@example.com");
  });

  it("never yields a session, nor a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(mutations, async (mutation) => {
        const client = browser(config);
        const { url } = await callbackInHand(op, client);
        const mutated = mutate(url, client, mutation);
        fc.pre(mutated !== url || mutation.kind === "dropCookie" || mutation.kind === "changeCookieCharacter");
        const response = await client.get(mutated);
        expect(response.status).toBeLessThan(500);
        expect(setsSession(response)).toBe(false);
        expect(await client.session()).toBeNull();
      }),
      propertyOptions(50),
    );
  });
});
