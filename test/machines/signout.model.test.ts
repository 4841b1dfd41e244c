import { describe, expect, it } from "vitest";
import { signOutMachine as machine, type SignOutInput } from "../../machines/index.js";
import type { JWT } from "../../src/types.js";
import {
  effectPaths,
  expectPlayedAsPredicted,
  playBack,
  returns,
  throws,
  type EffectPath,
  itCoversTheMachine,
} from "./effect-paths.js";
import { facts } from "./fixtures.js";

const ada: JWT = { sub: "user-1", name: "Ada", email: "ada@example.com" };
const record = {
  sessionToken: "session-token-1",
  userId: "user-1",
  expires: new Date(Date.UTC(2030, 1, 1)),
  provider: "oidc",
  providerAccountId: "ada",
};
const readFailed = new Error("readSession: no secret opens this token");
const endFailed = new Error("endSession: the session store is unreachable");
const redirectFailed = new Error("resolveRedirect: the redirect callback threw");
const planFailed = new Error("planProviderLogout: the provider's discovery document could not be read");
const endSessionAtOp = {
  url: "https://op.example/session/end?id_token_hint=eyJ.x.y&state=s1",
  cookies: [{ name: "appauth.state.logout", value: "sealed-ticket", options: { maxAge: 900 } }],
};

const outcomes = {
  readSession: [
    returns("returns the token", () => ({ token: ada })),
    returns("returns null", () => ({ token: null })),
    returns("returns the database record", () => ({ session: record })),
    returns("returns no database record", () => ({ session: null })),
    throws("throws", readFailed),
  ],
  endSession: [returns("ends it", () => undefined), throws("throws", endFailed)],
  resolveRedirect: [returns("returns a URL", () => "https://app.example/goodbye"), throws("throws", redirectFailed)],
  planProviderLogout: [
    returns("returns the end-session URL", () => endSessionAtOp),
    returns("returns null", () => null),
    throws("throws", planFailed),
  ],
};

const request = facts();
const inputs: Record<string, SignOutInput> = {
  "no cookie": { callbackUrl: "/goodbye", request },
  "an empty cookie": { token: "", callbackUrl: "/goodbye", request },
  "a cookie": { token: "sealed", callbackUrl: "/goodbye", request },
};

const paths = effectPaths(machine, inputs, outcomes);

type Step = EffectPath<typeof machine>["steps"][number];
const errorOf = (steps: Step[], effect: string): unknown => {
  const step = steps.find((s) => s.effect === effect);
  return step && "error" in step.ending ? step.ending.error : undefined;
};

describe("sign-out: paths generated from the machine", () => {
  itCoversTheMachine(machine, outcomes, paths);

  for (const path of paths) {
    it(path.name, async () => {
      const played = await playBack(machine, path);
      expectPlayedAsPredicted(path, played);

      const { output } = played;
      expect(played.value).toBe("signedOut");
      expect(output.outcome).toBe("signedOut");
      const hadCookie = Boolean(path.input.token);
      expect(played.invoked.some((call) => call.effect === "endSession")).toBe(hadCookie);

      // Whose session it was: the token read, or null when it could not be read.
      const read = path.steps.find((s) => s.effect === "readSession");
      const ended = read && "output" in read.ending ? (read.ending.output as object) : { token: null };
      expect(played.emitted).toEqual(hadCookie ? [{ type: "signOut", ...ended }] : []);

      // The provider is asked only about a session that was read, and only once it has ended.
      const knownSession = Object.values(ended)[0] !== null;
      const effectsRun = played.invoked.map((call) => call.effect);
      expect(effectsRun.includes("planProviderLogout")).toBe(knownSession);
      if (knownSession) expect(effectsRun.slice(-2)).toEqual(["resolveRedirect", "planProviderLogout"]);

      // Out through the provider's end-session URL when it planned one, else to the callback URL.
      const redirected = path.steps.find((s) => s.effect === "resolveRedirect")!;
      const callbackUrl = "output" in redirected.ending ? (redirected.ending.output as string) : "";
      const planned = path.steps.find((s) => s.effect === "planProviderLogout");
      const plan = planned && "output" in planned.ending ? (planned.ending.output as typeof endSessionAtOp | null) : null;
      expect(output.redirectTo).toBe(plan ? plan.url : callbackUrl);
      expect(output.cookies).toEqual(plan ? plan.cookies : []);
      if (planned) expect(planned.input).toMatchObject({ ended, callbackUrl: callbackUrl || undefined });

      const endError = errorOf(path.steps, "endSession");
      const redirectError = errorOf(path.steps, "resolveRedirect");
      const planError = errorOf(path.steps, "planProviderLogout");
      expect(output.failures.map((f) => f.error)).toEqual([endError, redirectError, planError].filter((e) => e !== undefined));
    });
  }
});
