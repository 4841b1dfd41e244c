/**
 * When the store or the provider cannot answer, a logout token can be neither judged nor acted on:
 * the answer is 503 (never a 500, never a stack), the fault is logged, no session is half-ended, and
 * the same token works when the OP delivers it again after the outage (its claim is given back).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import { MemoryAdapter, type MemoryAdapterInstance } from "../../../src/adapters/memory/index.js";
import { customFetch } from "../../../src/symbols.js";
import { discover } from "../oauth/fixtures.js";
import {
  BACKCHANNEL_CLIENT,
  backchannelSetup,
  expectLoggedOut,
  logoutToken,
  postLogoutToken,
  signedIn,
  stillSignedIn,
  type Setup,
} from "./fixtures.js";

let op: TestProvider;

beforeAll(async () => {
  op = await startTestProvider({ clients: [BACKCHANNEL_CLIENT] });
});
afterAll(() => op.close());

/** The memory adapter, with `method` failing while `outage.down` is set. */
function flaky(method: "deleteSessionsByAccount" | "acquireLease") {
  const outage = { down: false };
  const real = MemoryAdapter();
  const adapter = {
    ...real,
    [method]: async (...args: unknown[]) => {
      if (outage.down) throw new Error(`${method}: connection refused (127.0.0.1:5432)`);
      return (real[method] as (...a: unknown[]) => Promise<unknown>)(...args);
    },
  } as MemoryAdapterInstance;
  return { adapter, outage };
}

async function expectUnavailable(response: Response): Promise<void> {
  expect(response.status).toBe(503);
  expect(response.headers.get("cache-control")).toContain("no-store");
  const text = await response.text();
  expect(JSON.parse(text)).toEqual({ error: "temporarily_unavailable", error_description: expect.any(String) });
  expect(text).not.toMatch(/connection refused|\n\s+at |\.ts:\d+/);
}

function loggedErrors(setup: Setup): string[] {
  return setup.config.logger.entries.filter((e) => e.level === "error").map((e) => `${e.code}: ${String(e.message[0])}`);
}

describe("back-channel logout during an outage", () => {
  const storeOutages = [
    ["the sessions cannot be deleted, and the OP's redelivery of the same token then works", "deleteSessionsByAccount"],
    ["the token's jti cannot be claimed, and ends nothing until it can", "acquireLease"],
  ] as const;
  for (const [what, method] of storeOutages) {
    it(`answers 503 when ${what}`, async () => {
      const { adapter, outage } = flaky(method);
      const setup = backchannelSetup(op, { adapter });
      const ada = await signedIn(op, setup);
      const token = await logoutToken(op, { sub: "ada" });

      outage.down = true;
      await expectUnavailable(await postLogoutToken(setup.config, token));
      expect(loggedErrors(setup)).toEqual([expect.stringContaining(`${method}: connection refused`)]);
      expect(await stillSignedIn(ada)).toBe(true);

      outage.down = false;
      await expectLoggedOut(await postLogoutToken(setup.config, token));
      expect(await stillSignedIn(ada)).toBe(false);
    });
  }

  it("answers 503 when the provider's JWKS cannot be fetched, rather than judging the token", async () => {
    const { jwks_uri } = await discover(op);
    const setup = backchannelSetup(op);
    const ada = await signedIn(op, setup);
    // Another configuration on the same store, whose key cache is empty and whose JWKS fetch fails.
    const jwksDown = backchannelSetup(op, {
      adapter: setup.adapter,
      oidc: {
        [customFetch]: (input: string | URL | Request, init?: RequestInit) => {
          const url = input instanceof Request ? input.url : String(input);
          return url === jwks_uri ? Promise.resolve(new Response("upstream down", { status: 502 })) : fetch(input, init);
        },
      },
    });
    await expectUnavailable(await postLogoutToken(jwksDown.config, await logoutToken(op, { sub: "ada" })));
    expect(loggedErrors(jwksDown)).toEqual([expect.stringContaining("JWKS could not be read")]);
    expect(await stillSignedIn(ada)).toBe(true);
  });
});
