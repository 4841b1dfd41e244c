/**
 * Revocable JWT sessions. A JWT opens wherever the secret is known, so ending one means remembering,
 * until it would have expired anyway, that it no longer counts: one session by its id (the
 * `appauthSid` claim: random at sign-in, kept across re-issues), or every session of a user signed in
 * before a time (the `appauthSignedInAt` claim, also kept). The records live in the adapter (its
 * session-revocation extension: memory, SQL, Redis), or in this process when there is none.
 *
 * A read must stay about as fast as the decryption, so it asks an in-process cache, one per store,
 * keyed by user: an entry is trusted for 30 s while the store notifies every revocation (Redis
 * pub/sub, PostgreSQL LISTEN/NOTIFY; a notice drops the user's entry at once), and for 1 s while it
 * cannot (MariaDB, SQLite, a notification connection that is down). Tokens without a session id
 * (Auth.js's, ours from before) are revocable per user (by `iat`) until their next re-issue gives them one.
 */
import type { Runtime } from "../config/runtime.js";
import type { ExtendedAdapter, RevocationNotice, SessionRevocation, StoredRevocations } from "../adapters/extensions.js";
import { memoryRevocations } from "./memory-revocations.js";
import type { JWT } from "../types.js";

/** The library's claim: the session's id, random at sign-in, the same in every re-issued token. */
export const SESSION_ID_CLAIM = "appauthSid";
/** The library's claim: when the session was signed in, in milliseconds since the epoch. */
export const SIGNED_IN_AT_CLAIM = "appauthSignedInAt";

/** How long a cached answer stands while the store notifies revocations, and while it cannot. */
export const NOTIFIED_TTL_MS = 30_000;
export const POLLED_TTL_MS = 1_000;
/** A revocation is kept this long past the session lifetime (a token re-issued while the notice travelled). */
const RECORD_MARGIN_MS = 5 * 60_000;
const MAX_CACHED_USERS = 10_000;
const WATCH_RETRY_MS = 5_000;

/**
 * Which sessions to end: one (`sessionId`), or every one of the user but `exceptSessionId` — the
 * caller's own current session, which is standing (a user's record is replaced by their next one, so
 * naming a session an earlier record revoked would let it open again).
 */
export interface RevocationTarget {
  userId: string;
  sessionId?: string;
  exceptSessionId?: string;
}

/** The id of the session a token belongs to, when it has one (Auth.js tokens and older ones of ours do not). */
export function sessionIdOf(token: JWT | null | undefined): string | undefined {
  const id = token?.[SESSION_ID_CLAIM];
  return typeof id === "string" && id !== "" ? id : undefined;
}

/** The claims of a new session: a fresh id and the sign-in time. */
export function newSessionClaims(now: number = Date.now()): JWT {
  return { [SESSION_ID_CLAIM]: globalThis.crypto.randomUUID(), [SIGNED_IN_AT_CLAIM]: now };
}

/** The claims that say which session `token` is (copied: a `jwt` callback may change the token in place). */
export function sessionClaimsOf(token: JWT): JWT {
  return { [SESSION_ID_CLAIM]: token[SESSION_ID_CLAIM], [SIGNED_IN_AT_CLAIM]: token[SIGNED_IN_AT_CLAIM], iat: token.iat };
}

/**
 * `token` with its session's claims: those of `before` (the token it re-issues, read before a `jwt`
 * callback that may have dropped them), else its own, else new ones (a token from before session ids,
 * whose sign-in time is then its `iat`).
 */
export function withSessionClaims(token: JWT, before?: JWT | null): JWT {
  const source = sessionIdOf(before) ? before! : sessionIdOf(token) ? token : undefined;
  if (source) {
    if (source === token) return token;
    return { ...token, [SESSION_ID_CLAIM]: source[SESSION_ID_CLAIM], [SIGNED_IN_AT_CLAIM]: signedInAtOf(source) };
  }
  const iat = (before ?? token).iat;
  return { ...token, ...newSessionClaims(typeof iat === "number" ? iat * 1000 : Date.now()) };
}

function signedInAtOf(token: JWT): number {
  const at = token[SIGNED_IN_AT_CLAIM];
  if (typeof at === "number") return at;
  return typeof token.iat === "number" ? token.iat * 1000 : 0;
}

/**
 * Ends JWT sessions of `target.userId` on every instance sharing the store (within about a second),
 * and reports it through `events.sessionRevoked`. With database sessions only the event is sent: the
 * sessions themselves are deleted through the adapter by the caller.
 */
export async function revokeSessions(rt: Runtime, target: RevocationTarget): Promise<void> {
  const { userId, sessionId, exceptSessionId } = target ?? {};
  if (typeof userId !== "string" || userId === "") throw new TypeError("revokeSessions: target.userId must be a non-empty string");
  if (sessionId !== undefined && (typeof sessionId !== "string" || sessionId === "")) {
    throw new TypeError("revokeSessions: target.sessionId must be a non-empty string when given");
  }
  if (rt.session.strategy === "jwt") {
    const revokedAt = Date.now();
    const revocation: SessionRevocation = {
      userId,
      ...(sessionId !== undefined ? { sessionId } : exceptSessionId !== undefined ? { exceptSessionId } : {}),
      revokedAt: new Date(revokedAt),
      expires: new Date(revokedAt + rt.jwt.maxAge * 1000 + RECORD_MARGIN_MS),
    };
    const cache = revocationCacheOf(rt);
    await cache.store.saveSessionRevocation(revocation);
    cache.forget(userId);
  }
  await reportRevoked(rt, {
    userId,
    ...(sessionId !== undefined ? { sessionId } : exceptSessionId !== undefined ? { exceptSessionId } : {}),
    strategy: rt.session.strategy,
  });
}

async function reportRevoked(rt: Runtime, message: Parameters<NonNullable<Runtime["events"]["sessionRevoked"]>>[0]): Promise<void> {
  try {
    await rt.events.sessionRevoked?.(message);
  } catch (error) {
    // As flows/run.ts's deliver(): logged, never rethrown (the revocation stands).
    rt.logger.error("EventError", 'The "sessionRevoked" event handler threw; the revocation stands.', error);
  }
}

/**
 * Whether the session `payload` stands for was revoked. Synchronous (`false`/`true`) when the cache
 * knows the user, so the read adds no await; a promise when the store is asked. A store that cannot
 * answer rejects (fail closed: the read reports the store fault, the cookie stays).
 */
export function isRevoked(rt: Runtime, payload: JWT): boolean | Promise<boolean> {
  const userId = payload.sub;
  if (typeof userId !== "string" || userId === "") return false;
  const cache = revocationCacheOf(rt);
  const known = cache.peek(userId);
  if (known) return revokedBy(known, payload);
  return cache.load(userId).then((entry) => revokedBy(entry, payload));
}

interface Entry {
  revokedBefore: number;
  keptSessionId: string | null;
  sessionIds: ReadonlySet<string>;
  /** Trusted until (ms since the epoch). */
  until: number;
}

function revokedBy(entry: Entry, payload: JWT): boolean {
  const sessionId = sessionIdOf(payload);
  if (sessionId !== undefined && entry.sessionIds.has(sessionId)) return true;
  if (entry.revokedBefore === 0 || (sessionId !== undefined && sessionId === entry.keptSessionId)) return false;
  // At or before: a sign-in in the very millisecond of a "sign out everywhere" is ended with the rest (fail closed).
  return signedInAtOf(payload) <= entry.revokedBefore;
}

type RevocationStore = Required<Pick<ExtendedAdapter, "saveSessionRevocation" | "getSessionRevocations" | "watchSessionRevocations">>;

export interface RevocationCache {
  store: RevocationStore;
  /** The cached entry of `userId`, if still trusted. */
  peek(userId: string): Entry | undefined;
  /** Reads `userId`'s revocations from the store (and caches them). */
  load(userId: string): Promise<Entry>;
  /** Drops `userId`'s entry (a revocation was just saved here). */
  forget(userId: string): void;
  /** Whether the store's notifications are being heard now. */
  connected(): boolean;
}

/**
 * One cache per store: keyed by the adapter (as the core wraps it), so configurations sharing an
 * adapter share what its store says, and those without one each keep their own (per runtime).
 */
const caches = new WeakMap<object, RevocationCache>();

export function revocationCacheOf(rt: Runtime): RevocationCache {
  const adapter = rt.adapter as ExtendedAdapter | undefined;
  const key: object = adapter ?? rt;
  let cache = caches.get(key);
  if (!cache) {
    cache = createRevocationCache(hasRevocations(adapter) ? adapter : memoryRevocations(), rt);
    caches.set(key, cache);
  }
  return cache;
}

function hasRevocations(adapter: ExtendedAdapter | undefined): adapter is ExtendedAdapter & RevocationStore {
  return (
    typeof adapter?.saveSessionRevocation === "function" &&
    typeof adapter.getSessionRevocations === "function" &&
    typeof adapter.watchSessionRevocations === "function"
  );
}

function createRevocationCache(store: RevocationStore, rt: Runtime): RevocationCache {
  const entries = new Map<string, Entry>();
  let connected = false;
  /** Bumped by every notice: a read that started before one must not cache what it read. */
  let epoch = 0;
  let watching: "no" | "starting" | "yes" | "cannot" = "no";
  let retryAt = 0;

  function onNotice(notice: RevocationNotice): void {
    epoch++;
    if ("userId" in notice) entries.delete(notice.userId);
    else {
      connected = notice.connected;
      entries.clear();
    }
  }

  function watch(): void {
    if (watching !== "no" || Date.now() < retryAt) return;
    watching = "starting";
    store.watchSessionRevocations(onNotice).then(
      (stop) => (watching = stop ? "yes" : "cannot"),
      (error: unknown) => {
        watching = "no";
        retryAt = Date.now() + WATCH_RETRY_MS;
        rt.logger.warn("revocation-watch-failed", `Session revocations are read every second: watching the store failed (${error instanceof Error ? error.message : String(error)}).`);
      },
    );
  }

  return {
    store,
    peek(userId) {
      const entry = entries.get(userId);
      if (entry && entry.until > Date.now()) return entry;
      return undefined;
    },
    async load(userId) {
      watch();
      const started = epoch;
      const stored: StoredRevocations = await store.getSessionRevocations(userId);
      const entry: Entry = {
        revokedBefore: stored.revokedBefore ? new Date(stored.revokedBefore).getTime() : 0,
        keptSessionId: stored.keptSessionId,
        sessionIds: new Set(stored.sessionIds),
        until: Date.now() + (connected ? NOTIFIED_TTL_MS : POLLED_TTL_MS),
      };
      if (epoch === started) {
        if (entries.size >= MAX_CACHED_USERS) entries.delete(entries.keys().next().value!);
        entries.delete(userId);
        entries.set(userId, entry);
      }
      return entry;
    },
    forget(userId) {
      epoch++;
      entries.delete(userId);
    },
    connected: () => connected,
  };
}
