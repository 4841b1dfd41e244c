/**
 * What a failed sign-in throws from a SolidStart server function goes to the browser as SolidStart
 * serializes it (seroval, every own property of the error). Bad input never yields a stack trace:
 * the thrown error carries no call frames, and keeps the `type`, `code` and `retryAfter` that
 * client code reads without `instanceof`.
 */
import { Feature, toJSONAsync } from "seroval";
import { describe, expect, it } from "vitest";
import ReactiveAuth, { CredentialsSignin, type ReactiveAuthConfig } from "../../../integrations/solid-start/index.js";
import { RateLimited } from "../../../src/errors.js";
import { ADA_USERNAME, testConfig } from "../../helpers/config.js";
import { event, form, SAME_ORIGIN, serving, thrownBy, visitor } from "./fixtures.js";

const FRAME = /\n\s+at /;

/** The body SolidStart 1.x answers a server function's throw with: seroval's JSON of the error (RegExp off, as it sets). */
async function asSerialized(thrown: unknown): Promise<string> {
  return JSON.stringify(await toJSONAsync(thrown, { disabledFeatures: Feature.RegExp }));
}

function config(overrides: Partial<ReactiveAuthConfig> = {}): ReactiveAuthConfig {
  return testConfig(overrides as Parameters<typeof testConfig>[0]) as ReactiveAuthConfig;
}

/** A visitor at `clientAddress` posts a wrong password through the sign-in action; what it threw. */
async function wrongPassword(auth: ReturnType<typeof ReactiveAuth>, clientAddress = "203.0.113.9"): Promise<unknown> {
  const { jar, token } = await visitor(auth);
  const call = event("/_server?id=signin", { jar, method: "POST", headers: SAME_ORIGIN, clientAddress });
  return thrownBy(serving(call, () => auth.signIn("credentials", form({ username: ADA_USERNAME, password: "wrong", csrfToken: token }))));
}

describe("an error a SolidStart sign-in action throws to the browser", () => {
  it("for a wrong password is CredentialsSignin with its type and code, and no stack frames in it or in its serialized form", async () => {
    const thrown = await wrongPassword(ReactiveAuth(config()));
    expect(thrown).toBeInstanceOf(CredentialsSignin);
    expect(thrown).toMatchObject({ type: "CredentialsSignin", code: "credentials" });
    expect((thrown as Error).stack).not.toMatch(FRAME);
    const body = await asSerialized(thrown);
    expect(body).toContain("CredentialsSignin");
    expect(body).not.toMatch(/\\n\s+at /);
  });

  it("for a refused attempt is RateLimited with its type, code and retryAfter (a number), and no stack frames", async () => {
    const auth = ReactiveAuth(config({ rateLimit: { credentials: { perClient: 1 } } }));
    expect(await wrongPassword(auth)).toBeInstanceOf(CredentialsSignin);
    const thrown = await wrongPassword(auth);
    expect(thrown).toBeInstanceOf(RateLimited);
    const { retryAfter } = thrown as RateLimited;
    expect(retryAfter).toBeGreaterThan(0);
    expect(thrown).toMatchObject({ type: "RateLimited", code: String(retryAfter) });
    expect((thrown as Error).stack).not.toMatch(FRAME);
    const body = await asSerialized(thrown);
    expect(body).toContain("retryAfter");
    expect(body).not.toMatch(/\\n\s+at /);
  });

  it("for another site's post is MissingCSRF, with no stack frames", async () => {
    const auth = ReactiveAuth(config());
    const { jar, token } = await visitor(auth);
    const call = event("/_server?id=signin", { jar, method: "POST", headers: { origin: "https://evil.example" } });
    const thrown = await thrownBy(serving(call, () => auth.signIn("credentials", form({ username: ADA_USERNAME, password: "wrong", csrfToken: token }))));
    expect(thrown).toMatchObject({ type: "MissingCSRF" });
    expect(await asSerialized(thrown)).not.toMatch(/\\n\s+at /);
  });
});
