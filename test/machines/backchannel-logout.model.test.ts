import { describe, expect, it } from "vitest";
import {
  backchannelLogoutMachine as machine,
  type BackchannelLogoutEmitted,
  type BackchannelLogoutInput,
  type BackchannelLogoutOutput,
  type LogoutTokenClaims,
} from "../../machines/index.js";
import {
  effectPaths,
  expectPlayedAsPredicted,
  playBack,
  returns,
  throws,
  type EffectPath,
  type EffectStep,
  itCoversTheMachine,
} from "./effect-paths.js";

const NOW = 1_900_000_000;
const bySubAndSid: LogoutTokenClaims = { iss: "https://op.example", jti: "jti-1", iat: NOW - 30, sub: "op-user-1", sid: "op-session-1" };
const bySid: LogoutTokenClaims = { iss: "https://op.example", jti: "jti-2", iat: NOW + 5, sid: "op-session-2" };
const keysUnreachable = new Error("verifyLogoutToken: the JWKS could not be fetched");
const leaseStoreDown = new Error("rememberLogoutToken: the store is unreachable");
const sessionStoreDown = new Error("endSessions: the store is unreachable");
const releaseFailed = new Error("forgetLogoutToken: the store is unreachable");

const outcomes = {
  verifyLogoutToken: [
    returns("accepts a token naming sub and sid", () => ({ claims: bySubAndSid })),
    returns("accepts a token naming only sid", () => ({ claims: bySid })),
    returns("refuses the token", () => ({ refused: "The logout token's iat is too old." })),
    throws("throws", keysUnreachable),
  ],
  rememberLogoutToken: [
    returns("claims the jti", () => true),
    returns("finds the jti taken", () => false),
    throws("throws", leaseStoreDown),
  ],
  endSessions: [returns("ends two sessions", () => 2), throws("throws", sessionStoreDown)],
  forgetLogoutToken: [returns("gives the claim back", () => undefined), throws("throws", releaseFailed)],
};

const posted: BackchannelLogoutInput = {
  providerId: "oidc",
  maxAge: 120,
  form: true,
  logoutTokens: ["eyJhbGciOiJSUzI1NiJ9.e30.sig"],
  now: NOW,
  holder: "request-1",
};
const { maxAge: _, ...notEnabled } = posted;
const inputs: Record<string, BackchannelLogoutInput> = {
  "a posted token": posted,
  "a provider without back-channel logout": notEnabled,
  "a JSON body": { ...posted, form: false },
  "no token": { ...posted, logoutTokens: [] },
  "two tokens": { ...posted, logoutTokens: ["a.b.c", "d.e.f"] },
};

const paths = effectPaths(machine, inputs, outcomes);

type Path = EffectPath<typeof machine>;

/** What the flow must do and end with, worked out from the request and the effects' endings alone. */
interface Prediction {
  effects: string[];
  outcome: BackchannelLogoutOutput["outcome"];
  /** The output, with asymmetric matchers where only the gist of a refusal's wording is fixed. */
  output: unknown;
  emitted: BackchannelLogoutEmitted[];
}

function predict(path: Path): Prediction {
  const { input } = path;
  const refused = (effects: string[], description: unknown): Prediction => ({
    effects,
    outcome: "refused",
    output: { outcome: "refused", description },
    emitted: [],
  });
  if (!(typeof input.maxAge === "number" && input.maxAge > 0)) return refused([], expect.stringMatching(/does not accept/));
  if (!input.form) return refused([], expect.stringMatching(/x-www-form-urlencoded/));
  if (input.logoutTokens.length !== 1) return refused([], expect.stringMatching(/exactly one logout_token/));

  const ending = (effect: string): EffectStep["ending"] => path.steps.find((s) => s.effect === effect)!.ending;
  const failed = (effects: string[], ...errors: unknown[]): Prediction => ({
    effects,
    outcome: "failed",
    output: { outcome: "failed", failures: errors.map((error) => ({ error })) },
    emitted: [],
  });

  const verified = ending("verifyLogoutToken");
  if ("error" in verified) return failed(["verifyLogoutToken"], verified.error);
  const verdict = verified.output as { claims: LogoutTokenClaims } | { refused: string };
  if ("refused" in verdict) return refused(["verifyLogoutToken"], verdict.refused);

  const claimed = ending("rememberLogoutToken");
  if ("error" in claimed) return failed(["verifyLogoutToken", "rememberLogoutToken"], claimed.error);
  if (claimed.output === false) return refused(["verifyLogoutToken", "rememberLogoutToken"], "This logout token was already used.");

  const ended = ending("endSessions");
  if ("error" in ended) {
    const released = ending("forgetLogoutToken");
    const all = ["verifyLogoutToken", "rememberLogoutToken", "endSessions", "forgetLogoutToken"];
    return "error" in released ? failed(all, ended.error, released.error) : failed(all, ended.error);
  }
  const { sub, sid } = verdict.claims;
  const whose = { ...(sub ? { sub } : {}), ...(sid ? { sid } : {}) };
  return {
    effects: ["verifyLogoutToken", "rememberLogoutToken", "endSessions"],
    outcome: "loggedOut",
    output: { outcome: "loggedOut", providerId: "oidc", ...whose, count: ended.output as number },
    emitted: [{ type: "backchannelLogout", provider: "oidc", ...whose, count: ended.output as number }],
  };
}

describe("back-channel logout: paths generated from the machine", () => {
  itCoversTheMachine(machine, outcomes, paths);

  for (const path of paths) {
    it(path.name, async () => {
      const played = await playBack(machine, path);
      expectPlayedAsPredicted(path, played);

      const predicted = predict(path);
      expect(played.invoked.map((call) => call.effect)).toEqual(predicted.effects);
      expect(played.output).toEqual(predicted.output);
      expect(played.emitted).toEqual(predicted.emitted);
      expect(played.value).toBe(predicted.outcome);

      // Each effect is given what the token says: the jti to claim (until the token could no longer
      // be accepted, skew included), then the sessions of its sub and/or sid.
      const verdict = path.steps.find((s) => s.effect === "verifyLogoutToken")?.ending;
      const claims = verdict && "output" in verdict ? (verdict.output as { claims?: LogoutTokenClaims }).claims : undefined;
      for (const call of played.invoked) {
        if (call.effect === "verifyLogoutToken") {
          expect(call.input).toEqual({ providerId: "oidc", token: posted.logoutTokens[0], now: NOW, maxAge: 120 });
        }
        if (call.effect === "rememberLogoutToken") {
          expect(call.input).toEqual({
            key: `backchannel-logout:oidc:${claims!.jti}`,
            holder: "request-1",
            expires: new Date((claims!.iat + 120 + 15) * 1000),
          });
        }
        if (call.effect === "forgetLogoutToken") {
          expect(call.input).toEqual({ key: `backchannel-logout:oidc:${claims!.jti}`, holder: "request-1" });
        }
        if (call.effect === "endSessions") {
          expect(call.input).toEqual({
            provider: "oidc",
            ...(claims!.sub ? { providerAccountId: claims!.sub } : {}),
            ...(claims!.sid ? { providerSessionId: claims!.sid } : {}),
          });
        }
      }
    });
  }
});
