import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { fromPromise } from "xstate";
import { sessionMachine, type SessionInput, type TokenRefreshOutput } from "../../machines/index.js";
import type { SetCookie } from "../../src/cookies.js";
import type { JWT, Session, SessionAccount } from "../../src/types.js";
import { facts } from "./fixtures.js";
import { runToEnd } from "./run-actor.js";

const now = Date.UTC(2030, 0, 15, 12);
const nowSeconds = now / 1000;
const day = 24 * 60 * 60;
const token: JWT = { sub: "user-1", name: "Ada", email: "ada@example.com", iat: nowSeconds - 60, exp: nowSeconds + 30 * day };
const reissuedExpires = "2030-02-14T12:00:00.000Z";
const reissued: SetCookie[] = [{ name: "appauth.session-token", value: "resealed", options: { httpOnly: true, path: "/" } }];
const bothCallbacks = { jwt: true, session: true };
const noCallbacks = { jwt: false, session: false };
const read: SessionInput = { token: "sealed", now, updateAge: day, callbacks: bothCallbacks, request: facts() };

type Decoded = { payload: JWT; secretIndex: number } | null;
type Kept = { token: JWT | null; changed: boolean };
type RefreshRequest = { account: SessionAccount; userId?: string; now: number };

/** Fakes for a readable cookie holding `token`; each test overrides the effect it is about. */
function fakes(
  overrides: {
    decoded?: Decoded;
    jwt?: (input: { token: JWT }) => Promise<Kept>;
    refresh?: (input: RefreshRequest) => Promise<TokenRefreshOutput>;
  } = {},
) {
  const decoded = overrides.decoded === undefined ? { payload: token, secretIndex: 0 } : overrides.decoded;
  const effects = {
    refreshAccount: vi.fn(overrides.refresh ?? (async (_: RefreshRequest): Promise<TokenRefreshOutput> => ({ outcome: "fresh" }))),
    decodeSessionToken: vi.fn(async () => decoded),
    jwtCallback: vi.fn(overrides.jwt ?? (async (input: { token: JWT }) => ({ token: input.token, changed: false }))),
    encodeSessionToken: vi.fn(async (_input: { token: JWT }) => ({ cookies: reissued, expires: reissuedExpires })),
    sessionCallback: vi.fn(
      async (input: { token: JWT; expires: string; trigger?: "update"; newSession?: unknown; error?: string }): Promise<Session> => ({
        user: { name: input.token.name ?? null },
        expires: input.expires,
      }),
    ),
  };
  const machine = sessionMachine.provide({
    actors: {
      decodeSessionToken: fromPromise(() => effects.decodeSessionToken()),
      jwtCallback: fromPromise(({ input }) => effects.jwtCallback(input)),
      encodeSessionToken: fromPromise(({ input }) => effects.encodeSessionToken(input)),
      sessionCallback: fromPromise(({ input }) => effects.sessionCallback(input)),
      refreshAccount: fromPromise(({ input }) => effects.refreshAccount(input)),
    },
  });
  return { effects, machine };
}

describe("session machine", () => {
  /** Mostly false, so the age rule is often the one that decides. */
  const rarely = fc.oneof({ arbitrary: fc.constant(false), weight: 3 }, { arbitrary: fc.constant(true), weight: 1 });

  it("re-issues the token only when it changed, was opened by an older secret, is older than updateAge, or an update was requested", async () => {
    const cases = fc.record({
      seconds: fc.integer({ min: 1_500_000_000, max: 4_000_000_000 }),
      // Whole seconds often: only then does "older than" differ from "at least as old as".
      millis: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 999 })),
      updateAge: fc.integer({ min: 0, max: 60 * day }),
      // Seconds either side of updateAge: near the edge, and anywhere.
      offset: fc.oneof(fc.integer({ min: -2, max: 2 }), fc.integer({ min: -90 * day, max: 90 * day })),
      iatKnown: fc.oneof({ arbitrary: fc.constant(true), weight: 5 }, { arbitrary: fc.constant(false), weight: 1 }),
      secretIndex: fc.oneof({ arbitrary: fc.constant(0), weight: 3 }, { arbitrary: fc.integer({ min: 1, max: 3 }), weight: 1 }),
      changed: rarely,
      update: rarely,
    });
    await fc.assert(
      fc.asyncProperty(cases, async ({ seconds, millis, updateAge, offset, iatKnown, secretIndex, changed, update }) => {
        const now = seconds * 1000 + millis;
        const iat = seconds - updateAge - offset;
        const payload: JWT = iatKnown ? { sub: "user-1", iat, exp: iat + 30 * day } : { sub: "user-1", exp: 2_000_000_000 };
        const { machine, effects } = fakes({
          decoded: { payload, secretIndex },
          jwt: async (input) => ({ token: input.token, changed }),
        });
        const { output } = await runToEnd(machine, {
          token: "sealed",
          now,
          updateAge,
          callbacks: bothCallbacks,
          request: read.request,
          ...(update ? { update: { data: {} } } : {}),
        });
        // Exact integer arithmetic; a token with no iat has no known age and counts as old.
        const old = !iatKnown || BigInt(now) - BigInt(iat) * 1000n >= BigInt(updateAge) * 1000n;
        const due = changed || secretIndex > 0 || old || update;
        expect(effects.encodeSessionToken).toHaveBeenCalledTimes(due ? 1 : 0);
        expect(output).toMatchObject({ outcome: "active", cookies: due ? reissued : [] });
      }),
      { numRuns: 300 },
    );
  });

  it("a jwt callback that returns null ends in invalid with no cookies", async () => {
    const { machine, effects } = fakes({ jwt: async () => ({ token: null, changed: false }) });
    const { value, output, emitted } = await runToEnd(machine, read);
    expect(value).toBe("invalid");
    expect(output).toEqual({ outcome: "invalid" });
    expect(effects.encodeSessionToken).not.toHaveBeenCalled();
    expect(effects.sessionCallback).not.toHaveBeenCalled();
    expect(emitted).toEqual([]);
  });

  it("no cookie means no session, and no effect runs", async () => {
    const { machine, effects } = fakes();
    const { token: _absent, ...noCookie } = read;
    const { value, output } = await runToEnd(machine, noCookie);
    expect(value).toBe("noSession");
    expect(output).toEqual({ outcome: "none" });
    expect(effects.decodeSessionToken).not.toHaveBeenCalled();
  });

  it("a token no secret opens is invalid with nothing to log; a decoder that throws is a SessionTokenError", async () => {
    expect((await runToEnd(fakes({ decoded: null }).machine, read)).output).toEqual({ outcome: "invalid" });

    const broken = new Error("no secret configured");
    const throwing = fakes().machine.provide({ actors: { decodeSessionToken: fromPromise(() => Promise.reject(broken)) } });
    expect((await runToEnd(throwing, read)).output).toEqual({
      outcome: "invalid",
      failure: { error: broken, as: "SessionTokenError" },
    });
  });

  it("without a re-issue, the session expires when the token does", async () => {
    const { machine, effects } = fakes();
    const { output } = await runToEnd(machine, read);
    expect(effects.encodeSessionToken).not.toHaveBeenCalled();
    expect(output).toEqual({
      outcome: "active",
      session: { user: { name: "Ada" }, expires: new Date(token.exp! * 1000).toISOString() },
      cookies: [],
    });
  });

  it.each([
    ["no exp", undefined],
    ["an exp no date can hold", 1e300],
    ["a non-finite exp", Number.NaN],
  ])("a token with %s (a custom decoder's) is re-issued rather than reported as expiring in 1970 or crashing", async (_, exp) => {
    const { machine, effects } = fakes({ decoded: { payload: { ...token, exp }, secretIndex: 0 } });
    const { value, output } = await runToEnd(machine, read);
    expect(value).toBe("active");
    expect(effects.encodeSessionToken).toHaveBeenCalledOnce();
    expect(output).toMatchObject({ outcome: "active", session: { expires: reissuedExpires } });
  });

  it("hands an update to both callbacks as trigger 'update', and re-issues", async () => {
    const { machine, effects } = fakes();
    const { output } = await runToEnd(machine, { ...read, update: { data: { name: "Grace" } } });
    expect(effects.jwtCallback).toHaveBeenCalledWith({ token, trigger: "update", session: { name: "Grace" } });
    expect(effects.sessionCallback).toHaveBeenCalledWith({
      token,
      expires: reissuedExpires,
      trigger: "update",
      newSession: { name: "Grace" },
    });
    expect(output).toMatchObject({ outcome: "active", cookies: reissued });
  });

  it("without a jwt callback the decoded token is used as is and jwtCallback never runs", async () => {
    const { machine, effects } = fakes();
    const { value, output, emitted } = await runToEnd(machine, { ...read, callbacks: { jwt: false, session: true } });
    expect(value).toBe("active");
    expect(effects.jwtCallback).not.toHaveBeenCalled();
    // Unchanged, from the current secret and young: nothing to re-issue.
    expect(effects.encodeSessionToken).not.toHaveBeenCalled();
    expect(effects.sessionCallback).toHaveBeenCalledWith({ token, expires: new Date(token.exp! * 1000).toISOString() });
    expect(output).toEqual({
      outcome: "active",
      session: { user: { name: "Ada" }, expires: new Date(token.exp! * 1000).toISOString() },
      cookies: [],
    });
    expect(emitted).toEqual([{ type: "session", session: { user: { name: "Ada" }, expires: new Date(token.exp! * 1000).toISOString() }, token }]);
  });

  it("without a session callback the client sees name, email and picture of the token, and sessionCallback never runs", async () => {
    const pictured: JWT = { ...token, picture: "https://img.example/ada.png" };
    const { machine, effects } = fakes({
      decoded: { payload: pictured, secretIndex: 0 },
      // Claims the jwt callback adds stay in the token: the default session does not show them.
      jwt: async (input) => ({ token: { ...input.token, role: "admin" }, changed: true }),
    });
    const { output, emitted } = await runToEnd(machine, { ...read, callbacks: { jwt: true, session: false } });
    expect(effects.sessionCallback).not.toHaveBeenCalled();
    const session: Session = { user: { name: "Ada", email: "ada@example.com", image: "https://img.example/ada.png" }, expires: reissuedExpires };
    expect(output).toEqual({ outcome: "active", session, cookies: reissued });
    expect(emitted).toEqual([{ type: "session", session, token: { ...pictured, role: "admin" } }]);

    // A token without those claims shows them as null, not as missing keys; expiry from the token when not re-issued.
    const bare: JWT = { sub: "user-2", iat: nowSeconds - 60, exp: nowSeconds + day };
    const plain = fakes({ decoded: { payload: bare, secretIndex: 0 } });
    expect((await runToEnd(plain.machine, { ...read, callbacks: noCallbacks })).output).toEqual({
      outcome: "active",
      session: { user: { name: null, email: null, image: null }, expires: new Date((nowSeconds + day) * 1000).toISOString() },
      cookies: [],
    });
    expect(plain.effects.sessionCallback).not.toHaveBeenCalled();
  });

  it("an update with no callbacks still re-issues the token", async () => {
    const { machine, effects } = fakes();
    const { value, output } = await runToEnd(machine, { ...read, callbacks: noCallbacks, update: { data: { name: "Grace" } } });
    expect(value).toBe("active");
    expect(effects.jwtCallback).not.toHaveBeenCalled();
    expect(effects.sessionCallback).not.toHaveBeenCalled();
    // The default callbacks ignore the update's data: the token is re-issued as it was decoded.
    expect(effects.encodeSessionToken).toHaveBeenCalledExactlyOnceWith({ token, request: read.request });
    expect(output).toEqual({
      outcome: "active",
      session: { user: { name: "Ada", email: "ada@example.com", image: null }, expires: reissuedExpires },
      cookies: reissued,
    });
  });

  it("says which session was read, with the token the jwt callback kept", async () => {
    const { machine } = fakes({ jwt: async (input) => ({ token: { ...input.token, role: "admin" }, changed: true }) });
    const { output, emitted } = await runToEnd(machine, read);
    expect(output.outcome).toBe("active");
    if (output.outcome === "active") {
      expect(emitted).toEqual([{ type: "session", session: output.session, token: { ...token, role: "admin" } }]);
    }
  });
});

describe("session machine: the signed-in account's access token", () => {
  const refresh = { oidc: 60 };
  /** Signed in through the OP; its access token expires in 30 seconds, inside the 60-second margin. */
  const account: SessionAccount = {
    provider: "oidc",
    providerAccountId: "ada",
    type: "oidc",
    access_token: "at-1",
    refresh_token: "rt-1",
    expires_at: nowSeconds + 30,
    token_type: "bearer",
    scope: "openid profile",
    id_token: "id-1",
    sid: "op-session-1",
  };
  const signedIn: JWT = { ...token, account };
  const opened = { payload: signedIn, secretIndex: 0 };
  const renewedTokens = { ...account, access_token: "at-2", refresh_token: "rt-2", expires_at: nowSeconds + 3600, id_token: "id-2" };
  const refreshed = async (): Promise<TokenRefreshOutput> => ({ outcome: "refreshed", tokens: renewedTokens, source: "grant" });
  const invalidGrant = new Error("invalid_grant");
  const refused = async (): Promise<TokenRefreshOutput> => ({ outcome: "refused", failure: { error: invalidGrant, as: "SessionTokenError" } });
  const unavailable = async (): Promise<TokenRefreshOutput> => ({ outcome: "unavailable", failure: { error: new TypeError("fetch failed") } });
  const keepsToken = async (input: { token: JWT }): Promise<Kept> => ({ token: input.token, changed: false });
  const configured = [bothCallbacks, noCallbacks, { jwt: true, session: false }, { jwt: false, session: true }];
  const encodedToken = (effects: ReturnType<typeof fakes>["effects"]) => effects.encodeSessionToken.mock.calls[0]![0].token;

  it("refreshes a due access token once, and re-issues the token with the new one, whichever callbacks are configured", async () => {
    for (const callbacks of configured) {
      const { machine, effects } = fakes({ decoded: opened, refresh: refreshed, jwt: keepsToken });
      const { value, output, emitted } = await runToEnd(machine, { ...read, callbacks, refresh });
      expect(value, JSON.stringify(callbacks)).toBe("active");
      expect(effects.refreshAccount).toHaveBeenCalledExactlyOnceWith({ account, userId: "user-1", now });
      // The new tokens are what the cookie now holds: a refresh that is not written back is spent for nothing.
      expect(effects.encodeSessionToken, JSON.stringify(callbacks)).toHaveBeenCalledOnce();
      const renewed = { ...signedIn, account: renewedTokens };
      expect(encodedToken(effects)).toEqual(renewed);
      expect(output).toMatchObject({ outcome: "active", cookies: reissued });
      if (callbacks.jwt) expect(effects.jwtCallback).toHaveBeenCalledWith({ token: renewed });
      if (callbacks.session) expect(effects.sessionCallback).toHaveBeenCalledWith({ token: renewed, expires: reissuedExpires });
      else if (output.outcome === "active") expect(output.session.error).toBeUndefined();
      expect(emitted).toEqual([expect.objectContaining({ type: "session", token: renewed })]);
    }
  });

  it("keeps a new ID token only where the account kept one", async () => {
    const { id_token: _none, ...withoutIdToken } = account;
    const { machine, effects } = fakes({ decoded: { payload: { ...token, account: withoutIdToken }, secretIndex: 0 }, refresh: refreshed });
    await runToEnd(machine, { ...read, callbacks: noCallbacks, refresh });
    expect(encodedToken(effects).account).toEqual({ ...renewedTokens, id_token: undefined });
    expect("id_token" in encodedToken(effects).account!).toBe(false);
  });

  it("a refused refresh token is dropped, the account marked RefreshTokenError and the token re-issued; the session says so", async () => {
    const { refresh_token: _spent, ...rest } = account;
    const marked = { ...signedIn, account: { ...rest, error: "RefreshTokenError" } };
    for (const callbacks of configured) {
      const { machine, effects } = fakes({ decoded: opened, refresh: refused, jwt: keepsToken });
      const { value, output } = await runToEnd(machine, { ...read, callbacks, refresh });
      expect(value).toBe("active");
      expect(effects.encodeSessionToken, JSON.stringify(callbacks)).toHaveBeenCalledOnce();
      expect(encodedToken(effects)).toEqual(marked);
      expect(encodedToken(effects).account).not.toHaveProperty("refresh_token");
      if (callbacks.session) expect(effects.sessionCallback).toHaveBeenCalledWith({ token: marked, expires: reissuedExpires });
      else expect(output).toMatchObject({ outcome: "active", session: { error: "RefreshTokenError" } });
    }
  });

  it("an account already marked refused is not refreshed again, and still shows RefreshTokenError", async () => {
    const { refresh_token: _spent, ...rest } = account;
    const marked: JWT = { ...token, account: { ...rest, expires_at: nowSeconds - 3600, error: "RefreshTokenError" } };
    const { machine, effects } = fakes({ decoded: { payload: marked, secretIndex: 0 }, refresh: refreshed });
    const { output } = await runToEnd(machine, { ...read, callbacks: noCallbacks, refresh });
    expect(effects.refreshAccount).not.toHaveBeenCalled();
    expect(effects.encodeSessionToken).not.toHaveBeenCalled();
    expect(output).toMatchObject({ outcome: "active", session: { error: "RefreshTokenError" }, cookies: [] });
  });

  it("a refresh that cannot be done now keeps the session and the token as they were, and shows RefreshTokenUnavailable", async () => {
    const thrown = async (): Promise<TokenRefreshOutput> => {
      throw new Error("refreshAccount: the refresher crashed");
    };
    for (const refreshAccount of [unavailable, thrown]) {
      for (const callbacks of configured) {
        const { machine, effects } = fakes({ decoded: opened, refresh: refreshAccount, jwt: keepsToken });
        const { value, output } = await runToEnd(machine, { ...read, callbacks, refresh });
        expect(value).toBe("active");
        // Nothing of the failed refresh is kept: the next read tries again.
        expect(effects.encodeSessionToken).not.toHaveBeenCalled();
        expect(output).toMatchObject({ outcome: "active", cookies: [] });
        if (callbacks.session) {
          expect(effects.sessionCallback).toHaveBeenCalledWith({ token: signedIn, expires: new Date(token.exp! * 1000).toISOString(), error: "RefreshTokenUnavailable" });
        } else expect(output).toMatchObject({ session: { error: "RefreshTokenUnavailable" } });
      }
    }
  });

  it("runs no refresh for a token with no account, an account not due, a provider not refreshed, or no refresh settings", async () => {
    const later = { ...account, expires_at: nowSeconds + 61 };
    const cases: Array<[string, JWT, Record<string, number> | undefined]> = [
      ["no account", token, refresh],
      ["not due", { ...token, account: later }, refresh],
      ["at the margin's edge, a second early", { ...token, account: { ...account, expires_at: nowSeconds + 61 } }, refresh],
      ["another provider", { ...token, account: { ...account, provider: "github" } }, refresh],
      ["no refresh settings", signedIn, undefined],
      ["no expiry", { ...token, account: { ...account, expires_at: undefined } }, refresh],
    ];
    for (const [name, payload, settings] of cases) {
      const { machine, effects } = fakes({ decoded: { payload, secretIndex: 0 }, refresh: refreshed });
      const { output } = await runToEnd(machine, { ...read, callbacks: noCallbacks, ...(settings ? { refresh: settings } : {}) });
      expect(effects.refreshAccount, name).not.toHaveBeenCalled();
      expect(effects.encodeSessionToken, name).not.toHaveBeenCalled();
      expect(output, name).toMatchObject({ outcome: "active", cookies: [] });
      if (output.outcome === "active") expect(output.session.error, name).toBeUndefined();
    }
    // Exactly at expires_at - margin it is due.
    const { machine, effects } = fakes({ decoded: { payload: { ...token, account: { ...account, expires_at: nowSeconds + 60 } }, secretIndex: 0 } });
    await runToEnd(machine, { ...read, callbacks: noCallbacks, refresh });
    expect(effects.refreshAccount).toHaveBeenCalledOnce();
  });

  it("a refresh that finds the token fresh after all changes nothing", async () => {
    const { machine, effects } = fakes({ decoded: opened, refresh: async () => ({ outcome: "fresh" }) });
    const { output } = await runToEnd(machine, { ...read, callbacks: noCallbacks, refresh });
    expect(effects.refreshAccount).toHaveBeenCalledOnce();
    expect(effects.encodeSessionToken).not.toHaveBeenCalled();
    expect(output).toMatchObject({ outcome: "active", cookies: [] });
    if (output.outcome === "active") expect(output.session.error).toBeUndefined();
  });

  it("hands the refresh the token's subject as the user, and none when the token has no subject", async () => {
    const { sub: _sub, ...anonymous } = signedIn;
    const { machine, effects } = fakes({ decoded: { payload: anonymous, secretIndex: 0 } });
    await runToEnd(machine, { ...read, callbacks: noCallbacks, refresh });
    expect(effects.refreshAccount).toHaveBeenCalledExactlyOnceWith({ account, now });
  });
});
