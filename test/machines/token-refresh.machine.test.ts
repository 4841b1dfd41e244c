import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fromPromise } from "xstate";
import {
  tokenRefreshMachine,
  type GrantResult,
  type RefreshTokens,
  type TokenRefreshInput,
  type TokenRefreshOutput,
} from "../../machines/index.js";
import { refreshDue } from "../../machines/token-refresh.machine.js";
import { propertyOptions } from "../helpers/property.js";
import { effectNames } from "./effect-paths.js";
import { runToEnd } from "./run-actor.js";

const now = Date.UTC(2030, 0, 15, 12, 0, 0, 250);
const nowSeconds = Math.floor(now / 1000);
const margin = 60;

/** What the session carries: an access token that expires in 30 seconds, inside the 60-second margin. */
const sessionTokens: RefreshTokens = {
  access_token: "at-1",
  refresh_token: "rt-1",
  expires_at: nowSeconds + 30,
  token_type: "bearer",
  scope: "openid profile",
  id_token: "id-1",
};
/** What the provider answers to the refresh_token grant: a new access token and a rotated refresh token. */
const rotated: RefreshTokens = { access_token: "at-2", refresh_token: "rt-2", expires_at: nowSeconds + 3600 };
/** What a peer process stored after its own refresh a moment ago (a stored account without an ID token or scope). */
const peerTokens: RefreshTokens = { access_token: "at-peer", refresh_token: "rt-peer", expires_at: nowSeconds + 3600, token_type: "bearer" };
const invalidGrant = Object.assign(new Error("invalid_grant"), { error: "invalid_grant" });

const unshared: TokenRefreshInput = {
  provider: "oidc",
  providerAccountId: "ada",
  userId: "user-1",
  tokens: sessionTokens,
  now,
  margin,
  shared: false,
  stores: true,
  holder: "holder-1",
  leaseMs: 15_000,
};
const shared: TokenRefreshInput = { ...unshared, shared: true };
const ref = { provider: "oidc", providerAccountId: "ada", userId: "user-1" };

type LeaseInput = { key: string; holder: string; expires: number };
type AccountRef = { provider: string; providerAccountId: string; userId?: string };
type PeerInput = AccountRef & { previous: RefreshTokens; until: number };

interface Answers {
  acquireLease?: (input: LeaseInput) => Promise<boolean>;
  readStoredTokens?: (input: AccountRef) => Promise<RefreshTokens | null>;
  refreshGrant?: (input: { provider: string; refreshToken: string }) => Promise<GrantResult>;
  storeTokens?: (input: AccountRef & { tokens: RefreshTokens }) => Promise<void>;
  storeRefusal?: (input: AccountRef) => Promise<void>;
  awaitPeer?: (input: PeerInput) => Promise<RefreshTokens | null>;
  releaseLease?: (input: { key: string; holder: string }) => Promise<void>;
}

/**
 * Fakes for a store that holds what the session holds, a free lease, and a provider that rotates;
 * each test overrides what it is about.
 */
function fakes(answers: Answers = {}) {
  const effects = {
    acquireLease: vi.fn(answers.acquireLease ?? (async (_: LeaseInput) => true)),
    readStoredTokens: vi.fn(answers.readStoredTokens ?? (async (_: AccountRef): Promise<RefreshTokens | null> => sessionTokens)),
    refreshGrant: vi.fn(
      answers.refreshGrant ?? (async (_: { provider: string; refreshToken: string }): Promise<GrantResult> => ({ granted: true, tokens: rotated })),
    ),
    storeTokens: vi.fn(answers.storeTokens ?? (async (_: AccountRef & { tokens: RefreshTokens }) => undefined)),
    storeRefusal: vi.fn(answers.storeRefusal ?? (async (_: AccountRef) => undefined)),
    awaitPeer: vi.fn(answers.awaitPeer ?? (async (_: PeerInput): Promise<RefreshTokens | null> => peerTokens)),
    releaseLease: vi.fn(answers.releaseLease ?? (async (_: { key: string; holder: string }) => undefined)),
  };
  const machine = tokenRefreshMachine.provide({
    actors: {
      acquireLease: fromPromise(({ input }) => effects.acquireLease(input)),
      readStoredTokens: fromPromise(({ input }) => effects.readStoredTokens(input)),
      refreshGrant: fromPromise(({ input }) => effects.refreshGrant(input)),
      storeTokens: fromPromise(({ input }) => effects.storeTokens(input)),
      storeRefusal: fromPromise(({ input }) => effects.storeRefusal(input)),
      awaitPeer: fromPromise(({ input }) => effects.awaitPeer(input)),
      releaseLease: fromPromise(({ input }) => effects.releaseLease(input)),
    },
  });
  const ran = () =>
    Object.entries(effects)
      .filter(([, fn]) => fn.mock.calls.length > 0)
      .map(([name]) => name)
      .sort();
  return { effects, machine, ran };
}

async function refresh(input: TokenRefreshInput, answers: Answers = {}) {
  const world = fakes(answers);
  const ending = await runToEnd(world.machine, input);
  return { ...ending, ...world };
}

describe("token refresh machine", () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("an access token that is not due ends fresh, and no effect runs", async () => {
    const later = { ...sessionTokens, expires_at: nowSeconds + margin + 3600 };
    for (const input of [
      { ...unshared, tokens: later },
      { ...shared, tokens: later },
      // Without an expiry there is nothing to be due: the provider said nothing about it.
      { ...shared, tokens: { access_token: "at-1", refresh_token: "rt-1" } },
      // Not due, so its missing refresh token does not matter yet.
      { ...shared, tokens: { access_token: "at-1", expires_at: nowSeconds + margin + 1 } },
    ]) {
      const { value, output, ran } = await refresh(input);
      expect(value).toBe("fresh");
      expect(output).toEqual({ outcome: "fresh" });
      expect(ran()).toEqual([]);
    }
  });

  it("is due from exactly expires_at - margin on, and not a second before", async () => {
    const expiresAt = nowSeconds + 600;
    const tokens = { ...sessionTokens, expires_at: expiresAt };
    const edge = (expiresAt - margin) * 1000;
    // The last millisecond of the second before the edge is still that second.
    for (const [at, due] of [
      [edge, true],
      [edge + 999, true],
      [edge - 1, false],
      [edge - 1000, false],
    ] as const) {
      expect(refreshDue(tokens, at, margin), `at ${at - edge} ms`).toBe(due);
      const { value, effects } = await refresh({ ...unshared, tokens, now: at });
      expect(value, `at ${at - edge} ms`).toBe(due ? "refreshed" : "fresh");
      expect(effects.refreshGrant).toHaveBeenCalledTimes(due ? 1 : 0);
    }
    // A margin of 0 refreshes only what has expired, at its expiry second.
    expect(refreshDue(tokens, expiresAt * 1000, 0)).toBe(true);
    expect(refreshDue(tokens, expiresAt * 1000 - 1, 0)).toBe(false);
  });

  it("refreshes exactly when the whole second of now has reached expires_at - margin", async () => {
    const cases = fc.record({
      seconds: fc.integer({ min: 1_500_000_000, max: 4_000_000_000 }),
      millis: fc.oneof(fc.constant(0), fc.constant(999), fc.integer({ min: 0, max: 999 })),
      margin: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 3600 })),
      // Seconds either side of the edge, and anywhere.
      offset: fc.oneof(fc.integer({ min: -2, max: 2 }), fc.integer({ min: -86_400, max: 86_400 })),
    });
    await fc.assert(
      fc.asyncProperty(cases, async ({ seconds, millis, margin, offset }) => {
        const at = seconds * 1000 + millis;
        const expiresAt = seconds + margin + offset;
        const due = BigInt(seconds) >= BigInt(expiresAt) - BigInt(margin);
        const tokens = { ...sessionTokens, expires_at: expiresAt };
        expect(refreshDue(tokens, at, margin)).toBe(due);
        const { output, effects } = await refresh({ ...unshared, tokens, now: at, margin });
        expect(output.outcome).toBe(due ? "refreshed" : "fresh");
        expect(effects.refreshGrant).toHaveBeenCalledTimes(due ? 1 : 0);
      }),
      propertyOptions(200),
    );
  });

  it("a due token without a refresh token is refused at once: no lease, no grant, nothing stored", async () => {
    const { refresh_token: _none, ...noRefreshToken } = sessionTokens;
    for (const input of [
      { ...unshared, tokens: noRefreshToken },
      { ...shared, tokens: noRefreshToken },
      { ...shared, tokens: { ...sessionTokens, refresh_token: "" } },
    ]) {
      const { value, output, ran } = await refresh(input);
      expect(value).toBe("refused");
      // Nobody refused anything: there is no failure to log.
      expect(output).toEqual({ outcome: "refused" });
      expect(ran()).toEqual([]);
    }
  });

  it("unshared: grants with the session's refresh token, stores the merged tokens, and hands them back", async () => {
    const { value, output, effects, ran } = await refresh(unshared);
    expect(value).toBe("refreshed");
    const merged = { ...sessionTokens, ...rotated };
    expect(output).toEqual({ outcome: "refreshed", tokens: merged, source: "grant" });
    // Fields the grant did not renew (token type, scope, ID token) are kept.
    expect(merged).toMatchObject({ token_type: "bearer", scope: "openid profile", id_token: "id-1", access_token: "at-2" });
    expect(effects.refreshGrant).toHaveBeenCalledExactlyOnceWith({ provider: "oidc", refreshToken: "rt-1" });
    expect(effects.storeTokens).toHaveBeenCalledExactlyOnceWith({ ...ref, tokens: merged });
    expect(ran()).toEqual(["refreshGrant", "storeTokens"]);
  });

  it("a provider that does not rotate refresh tokens leaves the old one in place", async () => {
    const { access_token, expires_at } = rotated;
    const { output, effects } = await refresh(unshared, {
      refreshGrant: async () => ({ granted: true, tokens: { access_token, expires_at } }),
    });
    expect(output).toEqual({ outcome: "refreshed", tokens: { ...sessionTokens, access_token, expires_at }, source: "grant" });
    if (output.outcome === "refreshed") expect(output.tokens.refresh_token).toBe("rt-1");
    expect(effects.storeTokens.mock.calls[0]![0].tokens.refresh_token).toBe("rt-1");
  });

  it("without a store the refreshed tokens are only handed back", async () => {
    const { output, ran } = await refresh({ ...unshared, stores: false });
    expect(output).toEqual({ outcome: "refreshed", tokens: { ...sessionTokens, ...rotated }, source: "grant" });
    expect(ran()).toEqual(["refreshGrant"]);
  });

  it("tokens that could not be stored are still this read's: refreshed, with the store's failure to log", async () => {
    const storeDown = new Error("updateAccount: the database is unreachable");
    const { value, output } = await refresh(unshared, { storeTokens: () => Promise.reject(storeDown) });
    expect(value).toBe("refreshed");
    expect(output).toEqual({ outcome: "refreshed", tokens: { ...sessionTokens, ...rotated }, source: "grant", failure: { error: storeDown } });
  });

  it("invalid_grant records the refusal in the store and ends refused, with the provider's error", async () => {
    const { value, output, effects, ran } = await refresh(unshared, {
      refreshGrant: async () => ({ granted: false, error: invalidGrant }),
    });
    expect(value).toBe("refused");
    expect(output).toEqual({ outcome: "refused", failure: { error: invalidGrant, as: "SessionTokenError" } });
    expect(effects.storeRefusal).toHaveBeenCalledExactlyOnceWith(ref);
    expect(ran()).toEqual(["refreshGrant", "storeRefusal"]);

    // Without a store there is nowhere to record it; a store that fails to record it changes nothing.
    const unstored = await refresh({ ...unshared, stores: false }, { refreshGrant: async () => ({ granted: false, error: invalidGrant }) });
    expect(unstored.output).toEqual(output);
    expect(unstored.ran()).toEqual(["refreshGrant"]);
    const failing = await refresh(unshared, {
      refreshGrant: async () => ({ granted: false, error: invalidGrant }),
      storeRefusal: () => Promise.reject(new Error("updateAccount: the database is unreachable")),
    });
    expect(failing.output).toEqual(output);
  });

  it("a grant that throws (provider unreachable) is unavailable, and stores nothing", async () => {
    const unreachable = new TypeError("fetch failed");
    for (const input of [unshared, shared]) {
      const { value, output, effects } = await refresh(input, { refreshGrant: () => Promise.reject(unreachable) });
      expect(value).toBe("unavailable");
      expect(output).toEqual({ outcome: "unavailable", failure: { error: unreachable } });
      expect(effects.storeTokens).not.toHaveBeenCalled();
      expect(effects.storeRefusal).not.toHaveBeenCalled();
    }
  });

  it("shared: takes the lease, rereads, grants, stores, then releases the lease", async () => {
    const { value, output, effects, ran } = await refresh(shared);
    expect(value).toBe("refreshed");
    expect(output).toEqual({ outcome: "refreshed", tokens: { ...sessionTokens, ...rotated }, source: "grant" });
    expect(effects.acquireLease).toHaveBeenCalledExactlyOnceWith({ key: "refresh:oidc:ada", holder: "holder-1", expires: now + 15_000 });
    expect(effects.readStoredTokens).toHaveBeenCalledExactlyOnceWith(ref);
    expect(effects.refreshGrant).toHaveBeenCalledExactlyOnceWith({ provider: "oidc", refreshToken: "rt-1" });
    expect(effects.releaseLease).toHaveBeenCalledExactlyOnceWith({ key: "refresh:oidc:ada", holder: "holder-1" });
    expect(ran()).toEqual(["acquireLease", "readStoredTokens", "refreshGrant", "releaseLease", "storeTokens"]);
    // Released only once the new tokens are stored: a waiting peer then finds them.
    const order = (fn: { mock: { invocationCallOrder: number[] } }) => fn.mock.invocationCallOrder[0]!;
    expect(order(effects.acquireLease)).toBeLessThan(order(effects.readStoredTokens));
    expect(order(effects.readStoredTokens)).toBeLessThan(order(effects.refreshGrant));
    expect(order(effects.storeTokens)).toBeLessThan(order(effects.releaseLease));
  });

  it("shared: a peer that refreshed just before is adopted from the store without a grant, and the lease released", async () => {
    const { value, output, effects, ran } = await refresh(shared, { readStoredTokens: async () => peerTokens });
    expect(value).toBe("refreshed");
    expect(output).toEqual({ outcome: "refreshed", tokens: { ...sessionTokens, ...peerTokens }, source: "peer" });
    expect(effects.refreshGrant).not.toHaveBeenCalled();
    expect(effects.storeTokens).not.toHaveBeenCalled();
    expect(ran()).toEqual(["acquireLease", "readStoredTokens", "releaseLease"]);
  });

  it("shared: a stored refresh token newer than the session's is the one the grant spends", async () => {
    // The session missed a rotation (its cookie was not updated), but the stored access token is due too.
    const stored = { ...sessionTokens, refresh_token: "rt-newer" };
    const { output, effects } = await refresh(shared, { readStoredTokens: async () => stored });
    expect(effects.refreshGrant).toHaveBeenCalledExactlyOnceWith({ provider: "oidc", refreshToken: "rt-newer" });
    expect(output).toEqual({ outcome: "refreshed", tokens: { ...stored, ...rotated }, source: "grant" });

    // A peer's new access token that is itself already due is not adopted, but its refresh token is used.
    const dueAgain = { ...peerTokens, expires_at: nowSeconds + 10 };
    const second = await refresh(shared, { readStoredTokens: async () => dueAgain });
    expect(second.effects.refreshGrant).toHaveBeenCalledExactlyOnceWith({ provider: "oidc", refreshToken: "rt-peer" });
    expect(second.output).toMatchObject({ outcome: "refreshed", source: "grant", tokens: rotated });
  });

  it("shared: a store with nothing newer (or no account) leaves the session's refresh token to spend", async () => {
    for (const stored of [sessionTokens, null, { access_token: "at-1", expires_at: sessionTokens.expires_at }]) {
      const { output, effects } = await refresh(shared, { readStoredTokens: async () => stored });
      expect(effects.refreshGrant).toHaveBeenCalledExactlyOnceWith({ provider: "oidc", refreshToken: "rt-1" });
      expect(output).toEqual({ outcome: "refreshed", tokens: { ...sessionTokens, ...rotated }, source: "grant" });
      expect(effects.releaseLease).toHaveBeenCalledOnce();
    }
  });

  it("shared: a store that cannot be reread is unavailable, grants nothing, and releases the lease", async () => {
    const storeDown = new Error("getAccount: the database is unreachable");
    const { value, output, effects, ran } = await refresh(shared, { readStoredTokens: () => Promise.reject(storeDown) });
    expect(value).toBe("unavailable");
    expect(output).toEqual({ outcome: "unavailable", failure: { error: storeDown } });
    expect(effects.refreshGrant).not.toHaveBeenCalled();
    expect(ran()).toEqual(["acquireLease", "readStoredTokens", "releaseLease"]);
  });

  it("shared: a lease held by another process means waiting for its tokens, never granting", async () => {
    const taken = { acquireLease: async () => false };
    const adopted = await refresh(shared, taken);
    expect(adopted.value).toBe("refreshed");
    expect(adopted.output).toEqual({ outcome: "refreshed", tokens: { ...sessionTokens, ...peerTokens }, source: "peer" });
    expect(adopted.effects.awaitPeer).toHaveBeenCalledExactlyOnceWith({ ...ref, previous: sessionTokens, until: now + 15_000 });
    expect(adopted.ran()).toEqual(["acquireLease", "awaitPeer"]);

    // The peer's grant was refused: it stored the account without a refresh token.
    const { refresh_token: _spent, ...refusedRecord } = sessionTokens;
    const refused = await refresh(shared, { ...taken, awaitPeer: async () => refusedRecord });
    expect(refused.value).toBe("refused");
    expect(refused.output).toEqual({ outcome: "refused" });

    // Nothing new before the lease would expire (the peer crashed, or is slow): try again on the next read.
    for (const stored of [sessionTokens, null]) {
      const timedOut = await refresh(shared, { ...taken, awaitPeer: async () => stored });
      expect(timedOut.value).toBe("unavailable");
      expect(timedOut.output).toEqual({ outcome: "unavailable" });
    }

    const storeDown = new Error("getAccount: the database is unreachable");
    const failed = await refresh(shared, { ...taken, awaitPeer: () => Promise.reject(storeDown) });
    expect(failed.output).toEqual({ outcome: "unavailable", failure: { error: storeDown } });

    for (const run of [adopted, refused, failed]) {
      expect(run.effects.refreshGrant).not.toHaveBeenCalled();
      expect(run.effects.storeTokens).not.toHaveBeenCalled();
      expect(run.effects.storeRefusal).not.toHaveBeenCalled();
      expect(run.effects.releaseLease).not.toHaveBeenCalled();
    }
  });

  it("shared: a lease store that throws is unavailable, with no grant and nothing to release", async () => {
    const leaseDown = new Error("acquireLease: the database is unreachable");
    const { value, output, ran } = await refresh(shared, { acquireLease: () => Promise.reject(leaseDown) });
    expect(value).toBe("unavailable");
    expect(output).toEqual({ outcome: "unavailable", failure: { error: leaseDown } });
    expect(ran()).toEqual(["acquireLease"]);
  });

  it("releases the lease on every path that took it, and never when it did not", async () => {
    const boom = () => Promise.reject(new Error("down"));
    const scenarios: Array<[string, Answers, boolean]> = [
      ["refreshed", {}, true],
      ["refreshed, not stored", { storeTokens: boom }, true],
      ["adopted", { readStoredTokens: async () => peerTokens }, true],
      ["refused", { refreshGrant: async () => ({ granted: false, error: invalidGrant }) }, true],
      ["refused, refusal not stored", { refreshGrant: async () => ({ granted: false, error: invalidGrant }), storeRefusal: boom }, true],
      ["grant unavailable", { refreshGrant: boom }, true],
      ["reread unavailable", { readStoredTokens: boom }, true],
      ["lease taken by a peer", { acquireLease: async () => false }, false],
      ["lease store down", { acquireLease: boom }, false],
    ];
    for (const [name, answers, leased] of scenarios) {
      const { effects } = await refresh(shared, answers);
      expect(effects.releaseLease, name).toHaveBeenCalledTimes(leased ? 1 : 0);
      if (leased) expect(effects.releaseLease, name).toHaveBeenCalledWith({ key: "refresh:oidc:ada", holder: "holder-1" });
    }
    // Unshared, there is no lease to take or give back.
    for (const answers of [{}, { refreshGrant: boom }]) expect((await refresh(unshared, answers)).effects.releaseLease).not.toHaveBeenCalled();
  });

  it("a lease that cannot be given back does not change the outcome: it expires on its own", async () => {
    const { value, output } = await refresh(shared, { releaseLease: () => Promise.reject(new Error("releaseLease: down")) });
    expect(value).toBe("refreshed");
    expect(output).toEqual({ outcome: "refreshed", tokens: { ...sessionTokens, ...rotated }, source: "grant" });
  });

  it("leases per provider and account: another account, or the same id at another provider, has its own lease", async () => {
    const keys: string[] = [];
    for (const [provider, providerAccountId] of [
      ["oidc", "ada"],
      ["oidc", "grace"],
      ["github", "ada"],
    ] as const) {
      const { effects } = await refresh({ ...shared, provider, providerAccountId, holder: `holder-${provider}-${providerAccountId}` });
      const { key, holder } = effects.acquireLease.mock.calls[0]![0];
      expect(holder).toBe(`holder-${provider}-${providerAccountId}`);
      expect(effects.releaseLease).toHaveBeenCalledWith({ key, holder });
      expect(effects.refreshGrant).toHaveBeenCalledWith({ provider, refreshToken: "rt-1" });
      keys.push(key);
    }
    expect(new Set(keys).size).toBe(3);
    expect(keys).toEqual(["refresh:oidc:ada", "refresh:oidc:grace", "refresh:github:ada"]);
  });

  it("one grant for many simultaneous refreshes across processes sharing a store; the others adopt its tokens", async () => {
    const store = sharedStore();
    const outputs = await Promise.all(Array.from({ length: 8 }, (_, i) => store.run(`process-${i}`)));
    expect(store.grants).toEqual(["rt-1"]);
    for (const output of outputs) expect(output).toMatchObject({ outcome: "refreshed", tokens: { access_token: "at-2", refresh_token: "rt-2" } });
    expect(outputs.filter((output) => output.outcome === "refreshed" && output.source === "grant")).toHaveLength(1);
    expect(store.stored()).toMatchObject({ access_token: "at-2", refresh_token: "rt-2" });
    expect(store.lease()).toBeNull();

    // A process that reads the old session after all that adopts the stored tokens: still one grant.
    expect(await store.run("late")).toMatchObject({ outcome: "refreshed", source: "peer", tokens: { access_token: "at-2" } });
    expect(store.grants).toEqual(["rt-1"]);
  });

  it("one refused grant for many simultaneous refreshes: every one of them ends refused", async () => {
    const store = sharedStore({ revoked: true });
    const outputs = await Promise.all(Array.from({ length: 8 }, (_, i) => store.run(`process-${i}`)));
    expect(store.grants).toEqual(["rt-1"]);
    for (const output of outputs) expect(output.outcome).toBe("refused");
    expect(store.stored().refresh_token).toBeUndefined();
    expect(store.lease()).toBeNull();
  });

  it("decides by the time it is given, never the clock, and waits on no timer", async () => {
    vi.useFakeTimers();
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    // A clock ten years behind: were it read, the session's token would not be due.
    vi.setSystemTime(now - 10 * 365 * 86_400_000);
    for (const input of [unshared, shared]) expect((await refresh(input)).output.outcome).toBe("refreshed");
    expect((await refresh(shared, { acquireLease: async () => false })).output.outcome).toBe("refreshed");
    // A clock ten years ahead: were it read, a token valid for another hour would be due.
    vi.setSystemTime(now + 10 * 365 * 86_400_000);
    const { output, ran } = await refresh({ ...shared, tokens: rotated });
    expect(output).toEqual({ outcome: "fresh" });
    expect(ran()).toEqual([]);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("does nothing but through the effects it is given: unprovided, each one fails loudly by name", async () => {
    expect(effectNames(tokenRefreshMachine).sort()).toEqual(
      ["acquireLease", "awaitPeer", "readStoredTokens", "refreshGrant", "releaseLease", "storeRefusal", "storeTokens"].sort(),
    );
    const bare = await runToEnd(tokenRefreshMachine, unshared);
    expect(bare.output).toMatchObject({ outcome: "unavailable" });
    if (bare.output.outcome === "unavailable") expect(String(bare.output.failure?.error)).toMatch(/"refreshGrant" was not provided/);
    const leased = await runToEnd(tokenRefreshMachine, shared);
    if (leased.output.outcome === "unavailable") expect(String(leased.output.failure?.error)).toMatch(/"acquireLease" was not provided/);
    expect(leased.output.outcome).toBe("unavailable");
  });
});

/**
 * A store shared by several processes (a lease table and the account's tokens) and a provider that
 * rotates refresh tokens: a spent or revoked one is refused. Each run is one process's machine.
 */
function sharedStore(options: { revoked?: boolean } = {}) {
  let stored: RefreshTokens = { ...sessionTokens };
  let lease: { holder: string; expires: number } | null = null;
  let live = options.revoked ? null : "rt-1";
  const grants: string[] = [];
  // Every store or provider call takes a few turns of the event loop, so the runs interleave.
  const latency = () => new Promise((resolve) => setTimeout(resolve, 1));
  const machine = tokenRefreshMachine.provide({
    actors: {
      acquireLease: fromPromise(async ({ input }) => {
        await latency();
        if (lease && lease.expires > now) return false;
        lease = { holder: input.holder, expires: input.expires };
        return true;
      }),
      releaseLease: fromPromise(async ({ input }) => {
        await latency();
        if (lease?.holder === input.holder) lease = null;
      }),
      readStoredTokens: fromPromise(async (): Promise<RefreshTokens | null> => {
        await latency();
        return { ...stored };
      }),
      refreshGrant: fromPromise(async ({ input }): Promise<GrantResult> => {
        grants.push(input.refreshToken);
        await latency();
        if (input.refreshToken !== live) return { granted: false, error: invalidGrant };
        live = "rt-2";
        return { granted: true, tokens: rotated };
      }),
      storeTokens: fromPromise(async ({ input }) => {
        await latency();
        stored = { ...input.tokens };
      }),
      storeRefusal: fromPromise(async () => {
        await latency();
        const { refresh_token: _spent, ...rest } = stored;
        stored = rest;
      }),
      awaitPeer: fromPromise(async ({ input }): Promise<RefreshTokens | null> => {
        for (let polls = 0; polls < 200; polls++) {
          await latency();
          if (stored.access_token !== input.previous.access_token || typeof stored.refresh_token !== "string") return { ...stored };
        }
        return { ...stored };
      }),
    },
  });
  return {
    grants,
    stored: () => stored,
    lease: () => lease,
    run: async (holder: string): Promise<TokenRefreshOutput> => (await runToEnd(machine, { ...shared, holder })).output,
  };
}
