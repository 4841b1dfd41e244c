import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { fromPromise } from "xstate";
import { databaseSessionMachine, type DatabaseSessionInput, type RefreshedAccount } from "../../machines/index.js";
import type { SetCookie } from "../../src/cookies.js";
import type { AdapterAccount, AdapterSession, AdapterUser, Session } from "../../src/types.js";
import { facts } from "./fixtures.js";
import { runToEnd } from "./run-actor.js";

const now = Date.UTC(2030, 0, 15, 12);
const second = 1000;
const day = 24 * 60 * 60;
const maxAge = 30 * day;
const ada: AdapterUser = { id: "user-1", name: "Ada", email: "ada@example.com", emailVerified: null, image: "https://img.example/ada.png" };
/** Extended (or created) an hour ago: not due under the default updateAge of a day. */
const record: AdapterSession = { sessionToken: "session-token-1", userId: ada.id, expires: new Date(now - 3600 * second + maxAge * second) };
const written: SetCookie[] = [{ name: "appauth.session-token", value: "session-token-1", options: { httpOnly: true, path: "/" } }];
const read: DatabaseSessionInput = {
  sessionToken: "session-token-1",
  now,
  maxAge,
  updateAge: day,
  callbacks: { session: true },
  request: facts(),
};

type Loaded = { session: AdapterSession; user: AdapterUser } | null;
type Extended = { session: AdapterSession; cookies: SetCookie[] };
type Shaping = { user: AdapterUser; expires: string; trigger?: "update"; newSession?: unknown; account?: AdapterAccount; error?: string };
type RefreshRequest = { provider: string; providerAccountId: string; userId: string; now: number };

/** Fakes for a store holding Ada's session; each test overrides the effect it is about. */
function fakes(
  overrides: {
    load?: () => Promise<Loaded>;
    extend?: (input: { session: AdapterSession; expires: number }) => Promise<Extended>;
    shape?: (input: Shaping) => Promise<Session>;
    refresh?: (input: RefreshRequest) => Promise<RefreshedAccount>;
  } = {},
) {
  const effects = {
    refreshAccount: vi.fn(overrides.refresh ?? (async (_: RefreshRequest): Promise<RefreshedAccount> => ({ account: null }))),
    loadSession: vi.fn(overrides.load ?? (async (): Promise<Loaded> => ({ session: record, user: ada }))),
    extendSession: vi.fn(
      overrides.extend ?? (async (input: { session: AdapterSession; expires: number }) => ({ session: { ...input.session, expires: new Date(input.expires) }, cookies: written })),
    ),
    sessionCallback: vi.fn(
      overrides.shape ?? (async (input: Shaping): Promise<Session> => ({ user: { name: input.user.name ?? null }, expires: input.expires })),
    ),
  };
  const machine = databaseSessionMachine.provide({
    actors: {
      loadSession: fromPromise(() => effects.loadSession()),
      extendSession: fromPromise(({ input }) => effects.extendSession(input)),
      sessionCallback: fromPromise(({ input }) => effects.sessionCallback(input)),
      refreshAccount: fromPromise(({ input }) => effects.refreshAccount(input)),
    },
  });
  return { effects, machine };
}

describe("database session machine", () => {
  it("pushes the expiry forward when, and only when, the last extension is at least updateAge old", async () => {
    const cases = fc
      .record({
        seconds: fc.integer({ min: 1_500_000_000, max: 4_000_000_000 }),
        // Whole seconds often: only then does "at least" differ from "more than" at the edge.
        millis: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 999 })),
        maxAge: fc.integer({ min: 1, max: 365 * day }),
        // 0 (every read) often; otherwise anything up to beyond maxAge (then a session is never extended).
        updateAgeShare: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 2, noNaN: true })),
        // Milliseconds either side of the edge, or anywhere in the session's life and a little past maxAge.
        edge: fc.boolean(),
        offset: fc.integer({ min: -2, max: 2 }),
        anywhere: fc.double({ min: 0, max: 1.1, noNaN: true }),
      })
      .map(({ seconds, millis, maxAge, updateAgeShare, edge, offset, anywhere }) => {
        const now = seconds * 1000 + millis;
        const updateAge = Math.floor(maxAge * updateAgeShare);
        const remaining = edge ? (maxAge - updateAge) * 1000 + offset : Math.floor(anywhere * maxAge * 1000);
        // The store returns only sessions that have not expired.
        return { now, maxAge, updateAge, expires: now + Math.max(1, remaining) };
      });
    await fc.assert(
      fc.asyncProperty(cases, async ({ now, maxAge, updateAge, expires }) => {
        const stored: AdapterSession = { ...record, expires: new Date(expires) };
        const { machine, effects } = fakes({ load: async () => ({ session: stored, user: ada }) });
        const { output } = await runToEnd(machine, { ...read, now, maxAge, updateAge });
        // The last extension set expires to (then + maxAge); the next is due updateAge after it. Exact integers.
        const extendedAt = BigInt(expires) - BigInt(maxAge) * 1000n;
        const due = BigInt(now) - extendedAt >= BigInt(updateAge) * 1000n;
        expect(effects.extendSession).toHaveBeenCalledTimes(due ? 1 : 0);
        if (due) expect(effects.extendSession).toHaveBeenCalledWith({ session: stored, expires: now + maxAge * 1000, request: read.request });
        expect(output).toEqual({
          outcome: "active",
          session: { user: { name: "Ada" }, expires: new Date(due ? now + maxAge * 1000 : expires).toISOString() },
          cookies: due ? written : [],
        });
      }),
      { numRuns: 400 },
    );
  });

  it("with updateAge 0, every read of a live session extends it", async () => {
    const cases = fc.record({
      now: fc.integer({ min: 1_500_000_000_000, max: 4_000_000_000_000 }),
      maxAge: fc.integer({ min: 1, max: 365 * day }),
      share: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
    });
    await fc.assert(
      fc.asyncProperty(cases, async ({ now, maxAge, share }) => {
        // Extended any time from this very millisecond back to just before the session would lapse.
        const ago = Math.floor(share * maxAge * 1000);
        const stored: AdapterSession = { ...record, expires: new Date(now - ago + maxAge * 1000) };
        const { machine, effects } = fakes({ load: async () => ({ session: stored, user: ada }) });
        const { output } = await runToEnd(machine, { ...read, now, maxAge, updateAge: 0 });
        expect(effects.extendSession).toHaveBeenCalledOnce();
        expect(output).toMatchObject({ outcome: "active", cookies: written });
      }),
      { numRuns: 200 },
    );
  });

  it("a session read again and again is extended at most once per updateAge, and always once it is due", async () => {
    const cases = fc.record({
      maxAge: fc.integer({ min: 60, max: 60 * day }),
      updateAgeShare: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1, noNaN: true })),
      // Gaps between reads, as shares of maxAge: each shorter than maxAge, though an unextended session may lapse.
      gaps: fc.array(fc.double({ min: 0, max: 0.999, noNaN: true }), { minLength: 1, maxLength: 25 }),
    });
    await fc.assert(
      fc.asyncProperty(cases, async ({ maxAge, updateAgeShare, gaps }) => {
        const updateAge = Math.floor(maxAge * updateAgeShare);
        const created = now;
        let stored: AdapterSession = { ...record, expires: new Date(created + maxAge * 1000) };
        const extensions = [created];
        let at = created;
        for (const gap of gaps) {
          at += Math.floor(gap * maxAge * 1000);
          // The store, like loadDatabaseSession, finds nothing once the session has lapsed.
          const { machine, effects } = fakes({
            load: async () => (stored.expires.valueOf() > at ? { session: stored, user: ada } : null),
            extend: async ({ session, expires }) => {
              stored = { ...session, expires: new Date(expires) };
              return { session: stored, cookies: written };
            },
          });
          const last = extensions.at(-1)!;
          const { output } = await runToEnd(machine, { ...read, now: at, maxAge, updateAge });
          if (at - last >= maxAge * 1000) {
            expect(output).toEqual({ outcome: "invalid" });
            break;
          }
          const extended = effects.extendSession.mock.calls.length === 1;
          expect(extended).toBe(at - last >= updateAge * 1000);
          expect(output).toMatchObject({ outcome: "active", cookies: extended ? written : [] });
          if (extended) extensions.push(at);
        }
        for (let i = 1; i < extensions.length; i++) expect(extensions[i]! - extensions[i - 1]!).toBeGreaterThanOrEqual(updateAge * 1000);
      }),
      { numRuns: 150 },
    );
  });

  it("a session not yet due is shaped by the session callback with the stored expiry, and sets no cookie", async () => {
    const { machine, effects } = fakes();
    const { value, output } = await runToEnd(machine, read);
    expect(value).toBe("active");
    expect(effects.loadSession).toHaveBeenCalledOnce();
    expect(effects.extendSession).not.toHaveBeenCalled();
    expect(effects.sessionCallback).toHaveBeenCalledExactlyOnceWith({ user: ada, sessionToken: record.sessionToken, expires: record.expires.toISOString() });
    expect(output).toEqual({ outcome: "active", session: { user: { name: "Ada" }, expires: record.expires.toISOString() }, cookies: [] });
  });

  it("an extension writes the cookie, and the session the client sees expires at the new time", async () => {
    const { machine, effects } = fakes();
    const { output } = await runToEnd(machine, { ...read, updateAge: 0 });
    const pushed = new Date(now + maxAge * second).toISOString();
    expect(effects.extendSession).toHaveBeenCalledExactlyOnceWith({ session: record, expires: now + maxAge * second, request: read.request });
    expect(effects.sessionCallback).toHaveBeenCalledExactlyOnceWith({ user: ada, sessionToken: record.sessionToken, expires: pushed });
    expect(output).toEqual({ outcome: "active", session: { user: { name: "Ada" }, expires: pushed }, cookies: written });
  });

  it("without a session callback the client sees name, email and image of the user, and sessionCallback never runs", async () => {
    const { machine, effects } = fakes();
    const { output, emitted } = await runToEnd(machine, { ...read, callbacks: { session: false } });
    expect(effects.sessionCallback).not.toHaveBeenCalled();
    const session: Session = {
      user: { name: "Ada", email: "ada@example.com", image: "https://img.example/ada.png" },
      expires: record.expires.toISOString(),
    };
    expect(output).toEqual({ outcome: "active", session, cookies: [] });
    expect(emitted).toEqual([{ type: "session", session }]);

    // A user without a name or image shows them as null; an extension moves the expiry the client sees.
    const { name: _name, image: _image, ...plain } = ada;
    const bare = fakes({ load: async () => ({ session: record, user: plain }) });
    expect((await runToEnd(bare.machine, { ...read, updateAge: 0, callbacks: { session: false } })).output).toEqual({
      outcome: "active",
      session: { user: { name: null, email: "ada@example.com", image: null }, expires: new Date(now + maxAge * second).toISOString() },
      cookies: written,
    });
    expect(bare.effects.sessionCallback).not.toHaveBeenCalled();
  });

  it("hands an update to the session callback as trigger 'update'; an update alone does not push the expiry forward", async () => {
    const { machine, effects } = fakes();
    const { output } = await runToEnd(machine, { ...read, update: { data: { name: "Grace" } }, request: facts() });
    expect(effects.extendSession).not.toHaveBeenCalled();
    expect(effects.sessionCallback).toHaveBeenCalledExactlyOnceWith({
      user: ada,
      sessionToken: record.sessionToken,
      expires: record.expires.toISOString(),
      trigger: "update",
      newSession: { name: "Grace" },
    });
    expect(output).toMatchObject({ outcome: "active", cookies: [] });
  });

  it("no cookie, or an empty one, means no session, and nothing is asked of the store", async () => {
    const { machine, effects } = fakes();
    const { sessionToken: _absent, ...noCookie } = read;
    for (const input of [noCookie, { ...read, sessionToken: "" }]) {
      const { value, output, emitted } = await runToEnd(machine, input);
      expect(value).toBe("noSession");
      expect(output).toEqual({ outcome: "none" });
      expect(emitted).toEqual([]);
    }
    expect(effects.loadSession).not.toHaveBeenCalled();
  });

  it("a session the store does not know is invalid with nothing to log; a store that throws is invalid with the failure", async () => {
    const unknown = fakes({ load: async () => null });
    const { value, output, emitted } = await runToEnd(unknown.machine, read);
    expect(value).toBe("invalid");
    expect(output).toEqual({ outcome: "invalid" });
    expect(emitted).toEqual([]);
    expect(unknown.effects.extendSession).not.toHaveBeenCalled();
    expect(unknown.effects.sessionCallback).not.toHaveBeenCalled();

    const storeDown = new Error("the session store is unreachable");
    const outage = fakes({ load: () => Promise.reject(storeDown) });
    expect((await runToEnd(outage.machine, read)).output).toEqual({ outcome: "invalid", failure: { error: storeDown } });
  });

  it("an extension that fails is invalid with its failure, and announces no session", async () => {
    const gone = new Error("The session to extend no longer exists.");
    for (const callbacks of [{ session: true }, { session: false }]) {
      const { machine, effects } = fakes({ extend: () => Promise.reject(gone) });
      const { value, output, emitted } = await runToEnd(machine, { ...read, updateAge: 0, callbacks });
      expect(value).toBe("invalid");
      expect(output).toEqual({ outcome: "invalid", failure: { error: gone } });
      expect(emitted).toEqual([]);
      expect(effects.sessionCallback).not.toHaveBeenCalled();
    }
  });

  it("a session callback that throws is invalid with its failure, and its extension's cookie is not sent", async () => {
    const crashed = new Error("session callback: undefined is not a function");
    const { machine, effects } = fakes({ shape: () => Promise.reject(crashed) });
    const { value, output, emitted } = await runToEnd(machine, { ...read, updateAge: 0 });
    expect(effects.extendSession).toHaveBeenCalledOnce();
    expect(value).toBe("invalid");
    expect(output).toEqual({ outcome: "invalid", failure: { error: crashed } });
    expect(emitted).toEqual([]);
  });

  it("says which session was read, once", async () => {
    const { machine } = fakes();
    const { output, emitted } = await runToEnd(machine, read);
    expect(output.outcome).toBe("active");
    if (output.outcome === "active") expect(emitted).toEqual([{ type: "session", session: output.session }]);
  });
});

describe("database session machine: the signed-in account's access token", () => {
  const refresh = { oidc: 60 };
  const viaOidc: AdapterSession = { ...record, provider: "oidc", providerAccountId: "ada" };
  const account: AdapterAccount = {
    userId: ada.id,
    type: "oidc",
    provider: "oidc",
    providerAccountId: "ada",
    access_token: "at-2",
    refresh_token: "rt-2",
    expires_at: now / 1000 + 3600,
  };
  const loadsOidc = async (): Promise<Loaded> => ({ session: viaOidc, user: ada });

  it("refreshes the account a session was signed in with, and hands it to the session callback", async () => {
    const { machine, effects } = fakes({ load: loadsOidc, refresh: async () => ({ account }) });
    const { value, output } = await runToEnd(machine, { ...read, refresh });
    expect(value).toBe("active");
    expect(effects.refreshAccount).toHaveBeenCalledExactlyOnceWith({ provider: "oidc", providerAccountId: "ada", userId: ada.id, now });
    expect(effects.sessionCallback).toHaveBeenCalledExactlyOnceWith({ user: ada, sessionToken: record.sessionToken, expires: viaOidc.expires.toISOString(), account });
    // A refresh writes to the account, not to the session: no cookie.
    expect(output).toMatchObject({ outcome: "active", cookies: [] });
  });

  it("refreshes after an extension that is due, with the extended session's expiry shown", async () => {
    const { machine, effects } = fakes({ load: loadsOidc, refresh: async () => ({ account }) });
    const { output } = await runToEnd(machine, { ...read, refresh, updateAge: 0 });
    expect(effects.extendSession.mock.invocationCallOrder[0]!).toBeLessThan(effects.refreshAccount.mock.invocationCallOrder[0]!);
    expect(output).toMatchObject({ outcome: "active", cookies: written });
  });

  it("a refused refresh token shows as RefreshTokenError, with or without a session callback", async () => {
    const refusedAccount = { ...account, refresh_token: undefined };
    const refused = async (): Promise<RefreshedAccount> => ({ account: refusedAccount, error: "RefreshTokenError" });
    const shaped = fakes({ load: loadsOidc, refresh: refused });
    await runToEnd(shaped.machine, { ...read, refresh });
    expect(shaped.effects.sessionCallback).toHaveBeenCalledWith({
      user: ada,
      sessionToken: record.sessionToken,
      expires: viaOidc.expires.toISOString(),
      account: refusedAccount,
      error: "RefreshTokenError",
    });
    const plain = fakes({ load: loadsOidc, refresh: refused });
    const { output } = await runToEnd(plain.machine, { ...read, refresh, callbacks: { session: false } });
    expect(output).toMatchObject({ outcome: "active", session: { error: "RefreshTokenError" } });
  });

  it("a refresh that cannot be done now keeps the session, and shows RefreshTokenUnavailable", async () => {
    const unavailable = async (): Promise<RefreshedAccount> => ({ account, error: "RefreshTokenUnavailable" });
    const crashed = () => Promise.reject(new Error("getAccount: the database is unreachable"));
    for (const refreshAccount of [unavailable, crashed]) {
      const shaped = fakes({ load: loadsOidc, refresh: refreshAccount });
      const { value } = await runToEnd(shaped.machine, { ...read, refresh });
      expect(value).toBe("active");
      expect(shaped.effects.sessionCallback).toHaveBeenCalledWith(expect.objectContaining({ error: "RefreshTokenUnavailable" }));
      const plain = fakes({ load: loadsOidc, refresh: refreshAccount });
      const { output } = await runToEnd(plain.machine, { ...read, refresh, callbacks: { session: false } });
      expect(output).toEqual({
        outcome: "active",
        session: { user: { name: "Ada", email: "ada@example.com", image: "https://img.example/ada.png" }, expires: viaOidc.expires.toISOString(), error: "RefreshTokenUnavailable" },
        cookies: [],
      });
    }
  });

  it("an account unlinked since is neither shown nor an error", async () => {
    const { machine, effects } = fakes({ load: loadsOidc, refresh: async () => ({ account: null }) });
    await runToEnd(machine, { ...read, refresh });
    expect(effects.sessionCallback).toHaveBeenCalledExactlyOnceWith({ user: ada, sessionToken: record.sessionToken, expires: viaOidc.expires.toISOString() });
  });

  it("runs no refresh for a session without a recorded account, or of a provider whose tokens are not refreshed", async () => {
    const cases: Array<[string, AdapterSession, Record<string, number> | undefined]> = [
      ["no account recorded", record, refresh],
      ["NULL columns", { ...record, provider: null, providerAccountId: null }, refresh],
      ["a provider but no account id", { ...record, provider: "oidc", providerAccountId: null }, refresh],
      ["another provider", { ...viaOidc, provider: "github" }, refresh],
      ["no refresh settings", viaOidc, undefined],
    ];
    for (const [name, session, settings] of cases) {
      const { machine, effects } = fakes({ load: async () => ({ session, user: ada }), refresh: async () => ({ account }) });
      const { output } = await runToEnd(machine, { ...read, ...(settings ? { refresh: settings } : {}) });
      expect(effects.refreshAccount, name).not.toHaveBeenCalled();
      expect(effects.sessionCallback, name).toHaveBeenCalledExactlyOnceWith({ user: ada, sessionToken: record.sessionToken, expires: session.expires.toISOString() });
      expect(output, name).toMatchObject({ outcome: "active" });
    }
  });
});
