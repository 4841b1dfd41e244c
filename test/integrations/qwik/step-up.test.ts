/**
 * Step-up from Qwik City server code: `stepUpRequired`, what `requireRecentSecondFactor(event, maxAge)`
 * acts on, lets a recent second factor through and otherwise names where the browser goes: the
 * step-up page (one of the library's pages, loaded as a document) or sign-in, back to the page asked for.
 */
import { describe, expect, it } from "vitest";
import type { ResumableAuthConfig } from "../../../integrations/qwik/env.js";
import { registerConfig, stepUpRequired, type AuthRequestEvent } from "../../../integrations/qwik/server.js";
import { SECRET } from "../../helpers/config.js";
import { enrolledAdaWorld, provedSession } from "../../src/two-factor/enrolled-user.js";

const PAGE = "http://localhost:3000/account/keys?tab=1";

function eventFor(config: ResumableAuthConfig, session?: string): AuthRequestEvent {
  const event = {
    request: new Request(PAGE, { headers: session ? { cookie: `appauth.session-token=${session}` } : {} }),
    url: new URL(PAGE),
    env: { get: () => undefined },
    sharedMap: new Map<string, unknown>(),
    headers: new Headers(),
    clientConn: {},
    cookie: { set: () => undefined },
  } as unknown as AuthRequestEvent;
  registerConfig(event, async () => config);
  return event;
}

describe("requireRecentSecondFactor from Qwik City", () => {
  async function config(): Promise<ResumableAuthConfig> {
    const world = await enrolledAdaWorld();
    return { trustHost: true, secret: SECRET, adapter: world.adapter, session: { strategy: "jwt" }, twoFactor: {}, providers: [] };
  }

  it("goes on for a recent second factor, and sends an older one to the step-up page and back", async () => {
    const app = await config();
    expect(await stepUpRequired(eventFor(app, await provedSession(["pwd", "otp", "mfa"], 60)), { maxAge: 300 })).toBeNull();
    const to = await stepUpRequired(eventFor(app, await provedSession(["pwd", "otp", "mfa"], 600)), { maxAge: 300 });
    expect(to?.kind).toBe("document");
    const url = new URL(to!.kind === "document" ? to!.url : "", PAGE);
    expect(url.pathname).toBe("/auth/step-up");
    expect(url.searchParams.get("callbackUrl")).toBe("/account/keys?tab=1");
  });

  it("sends a visitor without a session to sign in, back to the page", async () => {
    const to = await stepUpRequired(eventFor(await config()), { maxAge: 300 });
    const url = new URL(to!.kind === "document" ? to!.url : "", PAGE);
    expect(url.pathname).toBe("/auth/signin");
    expect(url.searchParams.get("callbackUrl")).toBe("/account/keys?tab=1");
  });
});
