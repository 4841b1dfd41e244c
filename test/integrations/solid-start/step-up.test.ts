/**
 * Step-up from SolidStart server functions: `auth.requireRecentSecondFactor(maxAge, { path })` returns
 * for a recent second factor and otherwise throws the redirect SolidStart follows: the step-up page,
 * or sign-in without a session, back to `path` (only a path of the application).
 */
import { describe, expect, it } from "vitest";
import ReactiveAuth, { type ReactiveAuthConfig } from "../../../integrations/solid-start/index.js";
import { testConfig } from "../../helpers/config.js";
import { enrolledAdaWorld, provedSession } from "../../src/two-factor/enrolled-user.js";
import { event, Jar, serving, thrownBy } from "./fixtures.js";

async function app() {
  const world = await enrolledAdaWorld();
  return ReactiveAuth(testConfig({ adapter: world.adapter, session: { strategy: "jwt" }, twoFactor: {} }) as ReactiveAuthConfig);
}

async function jarWith(amr: string[], secondsAgo: number): Promise<Jar> {
  const jar = new Jar();
  jar.cookies.set("appauth.session-token", await provedSession(amr, secondsAgo));
  return jar;
}

/** Where the thrown redirect goes; `null` when the call returned. */
function locationOf(thrown: unknown): URL | null {
  if (thrown === undefined) return null;
  if (!(thrown instanceof Response)) throw thrown;
  return new URL(thrown.headers.get("location")!);
}

describe("requireRecentSecondFactor from SolidStart", () => {
  it("returns for a recent second factor, and sends an older one to the step-up page and back to the path", async () => {
    const auth = await app();
    const fresh = event("/account/keys", { jar: await jarWith(["pwd", "otp", "mfa"], 60) });
    expect(locationOf(await thrownBy(serving(fresh, () => auth.requireRecentSecondFactor(300, { path: "/account/keys" }))))).toBeNull();

    const stale = event("/account/keys", { jar: await jarWith(["pwd"], 1) });
    const to = locationOf(await thrownBy(serving(stale, () => auth.requireRecentSecondFactor(300, { path: "/account/keys" }))));
    expect(to?.pathname).toBe("/api/auth/step-up");
    expect(to?.searchParams.get("callbackUrl")).toBe("/account/keys");
  });

  it("keeps the way back on the application, and sends a visitor without a session to sign in", async () => {
    const auth = await app();
    const stale = event("/account/keys", { jar: await jarWith(["pwd"], 1) });
    const to = locationOf(await thrownBy(serving(stale, () => auth.requireRecentSecondFactor(300, { path: "//evil.example/x" }))));
    expect(to?.searchParams.get("callbackUrl")).toBe("/");

    const signedOut = event("/account/keys");
    const signIn = locationOf(await thrownBy(serving(signedOut, () => auth.requireRecentSecondFactor(300, { path: "/account/keys" }))));
    expect(signIn?.pathname).toBe("/api/auth/signin");
    expect(signIn?.searchParams.get("callbackUrl")).toBe("/account/keys");
  });
});
