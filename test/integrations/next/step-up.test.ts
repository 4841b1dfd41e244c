/**
 * Step-up from Next server code: `requireRecentSecondFactor(maxAge, { redirectTo })` of `AppAuth`
 * returns for a session that proved a second factor within `maxAge` seconds, and otherwise redirects
 * with Next's `redirect()`: to the step-up page, or to sign in for a visitor without a session, each
 * coming back to `redirectTo` (default: the calling page).
 */
import { describe, expect, it, vi } from "vitest";
import AppAuth from "../../../integrations/next/index.js";
import { enrolledAdaWorld, provedSession } from "../../src/two-factor/enrolled-user.js";
import { appConfig, SESSION_COOKIE } from "./fixtures.js";
import { inRequest, RequestScope } from "./next-request-scope.js";

vi.mock("next/headers.js", async () => (await import("./next-request-scope.js")).nextHeaders);

/** Where Next's `redirect()` was told to go; `null` when the call returned. */
async function redirectedTo(work: Promise<unknown>): Promise<string | null> {
  const thrown = await work.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (thrown === undefined) return null;
  const digest = (thrown as { digest?: unknown }).digest;
  if (typeof digest !== "string" || !digest.startsWith("NEXT_REDIRECT;")) throw thrown;
  return digest.split(";")[2]!;
}

/** Ada's session cookie, saying she proved `amr` that many seconds ago. */
const sessionOf = async (amr: string[], secondsAgo: number) => ({ [SESSION_COOKIE]: await provedSession(amr, secondsAgo) });

describe("requireRecentSecondFactor from Next server code", () => {
  async function app() {
    const world = await enrolledAdaWorld();
    return AppAuth(appConfig({ adapter: world.adapter, session: { strategy: "jwt" }, twoFactor: {} }));
  }
  const from = (cookies: Record<string, string>) => new RequestScope({ url: "http://localhost:3000/account/keys?tab=1", cookies });

  it("lets a session through whose second factor is recent enough", async () => {
    const { requireRecentSecondFactor } = await app();
    const scope = from(await sessionOf(["pwd", "otp", "mfa"], 60));
    expect(await redirectedTo(inRequest(scope, () => requireRecentSecondFactor(300)))).toBeNull();
  });

  it("sends an older proof, or a password alone, to the step-up page and back to the calling page or redirectTo", async () => {
    const { requireRecentSecondFactor } = await app();
    const stale = from(await sessionOf(["pwd", "otp", "mfa"], 600));
    const to = new URL((await redirectedTo(inRequest(stale, () => requireRecentSecondFactor(300))))!);
    expect(`${to.origin}${to.pathname}`).toBe("http://localhost:3000/api/auth/step-up");
    expect(to.searchParams.get("callbackUrl")).toBe("/account/keys?tab=1");

    const passwordOnly = from(await sessionOf(["pwd"], 1));
    const named = new URL((await redirectedTo(inRequest(passwordOnly, () => requireRecentSecondFactor(300, { redirectTo: "/account/delete" }))))!);
    expect(named.pathname).toBe("/api/auth/step-up");
    expect(named.searchParams.get("callbackUrl")).toBe("/account/delete");
  });

  it("sends a visitor without a session to sign in, coming back to the page", async () => {
    const { requireRecentSecondFactor } = await app();
    const to = new URL((await redirectedTo(inRequest(from({}), () => requireRecentSecondFactor(300))))!);
    expect(to.pathname).toBe("/api/auth/signin");
    expect(to.searchParams.get("callbackUrl")).toBe("/account/keys?tab=1");
  });
});
