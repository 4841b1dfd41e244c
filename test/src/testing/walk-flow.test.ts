/**
 * `walkFlow` from appauth/testing, used as an application would: its own `signIn`, `jwt` and `session`
 * callbacks wrapped as the credentials flow's effects, the world's answers (who `authorize` finds)
 * scripted, and every path of the flow (and of the sign-in completion it invokes) walked.
 */
import { describe, expect, it } from "vitest";
import { credentialsSignInMachine, type CredentialsSignInInput } from "../../../machines/index.js";
import { walkFlow, type EffectOutcome } from "../../../src/testing/index.js";
import type { CallbacksOptions, JWT, Session, User } from "../../../src/types.js";

type AppCallbacks = Required<Pick<CallbacksOptions, "signIn" | "jwt" | "session">>;

/** An application's callbacks: members only, a role in the token, the role shown in the session. */
const callbacks: AppCallbacks = {
  signIn: ({ user }) => ((user as User & { banned?: boolean }).banned ? "/banned" : true),
  jwt: ({ token, user }) => ({ ...token, role: user.email?.endsWith("@staff.example") ? "staff" : "member" }),
  session: ({ session, token }) => ({ ...session, user: { ...session.user, role: token.role } }) as Session,
};

/** The same application after a change that assumes every user has an email address. */
const brokenJwt: AppCallbacks = {
  ...callbacks,
  jwt: ({ token, user }) => ({ ...token, domain: user.email!.split("@")[1] }),
};

const input: CredentialsSignInInput = {
  providerId: "password",
  credentials: { username: "ada" },
  callbackUrl: "/dashboard",
  hasAdapter: false,
  request: { origin: "https://app.example", baseUrl: "https://app.example/auth", secure: true },
};

/** Who `authorize` may find: each one is a branch of every walk. */
const whoAuthorizeFinds: EffectOutcome[] = [
  { output: { id: "u-ada", name: "Ada", email: "ada@staff.example" } },
  { output: { id: "u-bob", name: "Bob", email: null } },
  { output: { id: "u-eve", name: "Eve", email: "eve@example.com", banned: true } },
  { output: null },
  { error: new Error("user store unreachable") },
];

/** What the rate limiter may answer before `authorize`: within the limits, or past one. */
const whatTheLimiterSays: EffectOutcome[] = [
  { output: { allowed: true, retryAfter: 0, counts: { perClient: 1, perIdentifier: 1 } } },
  { output: { allowed: false, retryAfter: 600, counts: { perClient: 6, perIdentifier: 6 }, scope: "credentials", limit: "perClient" } },
];

/** The world the flow meets: the limiter, and who `authorize` finds. */
const world = { checkAttempt: whatTheLimiterSays, authorize: whoAuthorizeFinds };

/** The flow's effects made of the application's callbacks, as its server wires them. */
function appEffects(app: AppCallbacks, sessions: Session[]) {
  return {
    signInCallback: (i: { user: User; account: never; credentials?: Record<string, unknown> }) => app.signIn(i),
    issueSession: async (i: { user: User; account: never }) => {
      const token = (await app.jwt({ token: { name: i.user.name, email: i.user.email, sub: i.user.id }, user: i.user, account: i.account, trigger: "signIn" })) as JWT;
      const session = await app.session({ session: { user: { name: token.name, email: token.email }, expires: "2030-01-01T00:00:00Z" }, token } as never);
      sessions.push(session);
      return [{ name: "app.session", value: JSON.stringify(token), options: { path: "/" } }];
    },
    resolveRedirect: (i: { url: string }) => (i.url.startsWith("/") ? i.url : "/"),
  };
}

describe("walking every path of the credentials flow with an application's callbacks", () => {
  it("reaches every final state, and shows each session the application's callbacks produced", async () => {
    const sessions: Session[] = [];
    const walk = await walkFlow(credentialsSignInMachine, {
      input,
      app: appEffects(callbacks, sessions),
      world,
    });
    expect(walk.paths.flatMap((p) => p.failures)).toEqual([]);
    // This application has no second factor configured, so no path stops at its challenge.
    expect(walk.unreached).toEqual(["challenged"]);
    const outcomes = walk.paths.map((p) => `${p.finalState}: ${(p.output as { outcome: string }).outcome}`).sort();
    expect(outcomes).toEqual(["diverted: diverted", "limited: refused", "refused: refused", "refused: refused", "signedIn: signedIn", "signedIn: signedIn"]);
    // Every signed-in path went through the application's signIn, jwt and session, in the completion.
    for (const path of walk.paths.filter((p) => p.finalState === "signedIn")) {
      expect(path.steps.map((s) => `${s.machine}.${s.effect}`)).toEqual([
        "credentialsSignIn.checkAttempt",
        "credentialsSignIn.authorize",
        "signInCompletion.signInCallback",
        "signInCompletion.issueSession",
        "signInCompletion.resolveRedirect",
      ]);
    }
    expect(sessions.map((s) => (s.user as { role?: string }).role).sort()).toEqual(["member", "staff"]);
  });

  it("finds the one path on which a callback breaks: a user without an email address", async () => {
    const walk = await walkFlow(credentialsSignInMachine, {
      input,
      app: appEffects(brokenJwt, []),
      world,
    });
    const broken = walk.paths.filter((p) => p.failures.length > 0);
    expect(broken).toHaveLength(1);
    expect(broken[0]!.failures[0]!.effect).toBe("issueSession");
    expect(broken[0]!.steps[1]!.outcome).toEqual({ output: { id: "u-bob", name: "Bob", email: null } });
    expect(broken[0]!.name).toMatch(/^checkAttempt → .* · authorize → .*Bob.* · signInCallback → true · issueSession → threw/);
    expect(broken[0]!.finalState).toBe("refused");
  });

  it("names an effect a path reaches that it was given no implementation or answers for", async () => {
    await expect(walkFlow(credentialsSignInMachine, { input, world })).rejects.toThrow(
      /the effect "signInCallback" is reached but is in neither options.app nor options.world/,
    );
  });
});
