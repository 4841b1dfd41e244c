/**
 * The sessions a person can see and end ("Your devices"), for both strategies. Every session has a
 * record — when it began and was last seen, how the person signed in, a coarse device, the client
 * address — and a public id that is never its bearer secret:
 *
 * - database sessions: the record is the session row itself (adapter extensions `listSessions` and
 *   `deleteSessions`); its id is a digest of the session token, so the token never leaves the cookie.
 * - JWT sessions: the id is the token's session id (session/revocation.ts); the record is stored
 *   under the key `jwt:<id>` in the adapter's sessions (when it lists them) or else in this
 *   configuration's memory. `:` is outside the alphabet of a session cookie (token-shape.ts), so such
 *   a record can never be read as a database session. Ending a JWT session revokes it (revocation.ts)
 *   as well as dropping its record.
 *
 * Every operation is scoped to one user: the records come from that user's list, so an id of another
 * user's session is not found, exactly like an id that does not exist.
 */
import { bound, type Runtime } from "../config/runtime.js";
import { toHex } from "../encoding.js";
import type { RequestContext } from "../request-context.js";
import type { Account, AdapterSession, JWT } from "../types.js";
import { loadDatabaseSession } from "./database-session.js";
import { decodeSessionToken, readSessionCookie } from "./jwt-session.js";
import { revokeSessions, sessionIdOf } from "./revocation.js";
import { listsSessions, recordFields, type ListingAdapter } from "./record-fields.js";

/** One of a person's sessions, as they are shown it (`GET /sessions`, the server helpers). */
export interface SessionInfo {
  /** The session's public id, for `revokeSession(id)`: never its token. */
  id: string;
  /** Whether this is the session the request was made with. */
  current: boolean;
  /** When the person signed in (ISO 8601), or `null` for a session from before records were kept. */
  createdAt: string | null;
  /** When the session was last seen (ISO 8601): its sign-in, then at most once per `session.updateAge`. */
  lastSeenAt: string | null;
  /** The provider signed in with (`github`, `email`, `credentials`, `passkey`), when known. */
  signInMethod: string | null;
  /** A coarse description of the device (`Firefox on Windows`), when the user agent named one. */
  device: string | null;
  /** The client address at sign-in, as the rate limiter sees it (an IPv6 address as its /64). */
  clientAddress: string | null;
  /** When the session ends unless it is used (ISO 8601). */
  expires: string;
}

/** The session a request is made with: its user, its public id, and (database) its token. */
export interface CurrentSession {
  userId: string;
  /** The public id; `null` for a JWT issued before sessions had ids (it is listed by nobody). */
  id: string | null;
  /** The database session's token (never shown): the one `revokeOtherSessions` keeps. */
  sessionToken?: string;
}

/** Where the records of one configuration's sessions are kept. */
interface SessionRecords {
  list(userId: string): Promise<AdapterSession[]>;
  create(record: AdapterSession): Promise<void>;
  touch(sessionToken: string, fields: { lastSeenAt: Date; expires: Date }): Promise<void>;
  delete(sessionToken: string): Promise<void>;
  deleteAll(userId: string, except?: string): Promise<number>;
}

const JWT_RECORD = "jwt:";

function adapterRecords(adapter: ListingAdapter): SessionRecords {
  return {
    list: (userId) => adapter.listSessions(userId),
    create: async (record) => {
      await adapter.createSession!(record);
    },
    touch: async (sessionToken, fields) => {
      await adapter.updateSession!({ sessionToken, ...fields });
    },
    delete: async (sessionToken) => {
      await adapter.deleteSession!(sessionToken);
    },
    deleteAll: (userId, except) => adapter.deleteSessions(userId, except === undefined ? {} : { except }),
  };
}

/** The most JWT session records one process keeps without a store; past it, the oldest go. */
const MAX_MEMORY_RECORDS = 100_000;
/**
 * The most records one user keeps in memory; past it, the one seen least recently goes. Each user's
 * records are kept in the order they were last seen (a touch moves a record to the end), and every
 * record lives `maxAge` from when it was last seen, so the first is also the first to expire: making
 * room costs one removal, never a scan of a busy user's records.
 */
const MAX_MEMORY_RECORDS_PER_USER = 100;

/** JWT session records in this configuration's memory: without a store they hold in one process only. */
function memoryRecords(): SessionRecords {
  const byUser = new Map<string, Map<string, AdapterSession>>();
  const userOf = new Map<string, string>();
  function remove(sessionToken: string): boolean {
    const userId = userOf.get(sessionToken);
    if (userId === undefined) return false;
    userOf.delete(sessionToken);
    const mine = byUser.get(userId);
    mine?.delete(sessionToken);
    if (mine?.size === 0) byUser.delete(userId);
    return true;
  }
  return {
    list: async (userId) => [...(byUser.get(userId)?.values() ?? [])].map((record) => ({ ...record })),
    create: async (record) => {
      remove(record.sessionToken);
      let mine = byUser.get(record.userId);
      if (mine && mine.size >= MAX_MEMORY_RECORDS_PER_USER) remove(mine.keys().next().value!);
      // The process-wide cap: the record signed in or seen least recently, whoever's it is.
      if (userOf.size >= MAX_MEMORY_RECORDS) remove(userOf.keys().next().value!);
      mine = byUser.get(record.userId);
      if (!mine) byUser.set(record.userId, (mine = new Map()));
      mine.set(record.sessionToken, { ...record });
      userOf.set(record.sessionToken, record.userId);
    },
    touch: async (sessionToken, fields) => {
      const userId = userOf.get(sessionToken);
      const mine = userId === undefined ? undefined : byUser.get(userId);
      const record = mine?.get(sessionToken);
      if (!record || userId === undefined || !mine) return;
      Object.assign(record, fields);
      // To the end of both orders: the next record to go is the one seen least recently.
      mine.delete(sessionToken);
      mine.set(sessionToken, record);
      userOf.delete(sessionToken);
      userOf.set(sessionToken, userId);
    },
    delete: async (sessionToken) => {
      remove(sessionToken);
    },
    deleteAll: async (userId, except) => {
      let deleted = 0;
      for (const token of [...(byUser.get(userId)?.keys() ?? [])]) if (token !== except && remove(token)) deleted++;
      return deleted;
    },
  };
}

/**
 * The adapter's records, and this process's memory for the sessions the adapter cannot hold: a
 * credentials user the application keeps elsewhere has no row of its own there for the record to
 * belong to. Such sessions are listed and ended in the process that signed them in only.
 */
function adapterOrMemoryRecords(rt: Runtime, adapter: ListingAdapter): SessionRecords {
  const stored = adapterRecords(adapter);
  const memory = memoryRecords();
  return {
    list: async (userId) => [...(await stored.list(userId)), ...(await memory.list(userId))],
    create: async (record) => {
      try {
        await stored.create(record);
      } catch (error) {
        rt.logger.debug("SessionRecordedInMemory", { message: "The adapter did not take a JWT session's record (is its user stored elsewhere?); it is kept in this process.", error });
        await memory.create(record);
      }
    },
    touch: async (sessionToken, fields) => {
      await memory.touch(sessionToken, fields);
      await stored.touch(sessionToken, fields);
    },
    delete: async (sessionToken) => {
      await memory.delete(sessionToken);
      await stored.delete(sessionToken);
    },
    deleteAll: async (userId, except) => (await memory.deleteAll(userId, except)) + (await stored.deleteAll(userId, except)),
  };
}

// Bound once per runtime (`bound`): each configuration has its own memory, none is shared.
const bindJwtRecords = (rt: Runtime): SessionRecords => (listsSessions(rt.adapter) ? adapterOrMemoryRecords(rt, rt.adapter) : memoryRecords());

/** Where this configuration's session records are; `null` for database sessions on an adapter without the extensions. */
function recordsOf(rt: Runtime): SessionRecords | null {
  if (rt.session.strategy === "jwt") return bound(rt, bindJwtRecords);
  return listsSessions(rt.adapter) ? adapterRecords(rt.adapter) : null;
}

/** Whether session records of `rt`'s strategy can be listed (database sessions need the adapter extensions). */
export function canListSessions(rt: Runtime): boolean {
  return recordsOf(rt) !== null;
}

/** Records a JWT session issued at sign-in (`token` carries its id). A store that fails costs the record, never the sign-in. */
export async function recordJwtSession(rt: Runtime, ctx: RequestContext, token: JWT, account: Account | null): Promise<void> {
  const id = sessionIdOf(token);
  if (id === undefined || typeof token.sub !== "string") return;
  const expires = new Date(Date.now() + rt.jwt.maxAge * 1000);
  try {
    await recordsOf(rt)!.create({ sessionToken: `${JWT_RECORD}${id}`, userId: token.sub, expires, ...recordFields(rt, ctx, account) });
  } catch (error) {
    rt.logger.warn("SessionNotRecorded", { message: "A JWT session was issued but could not be recorded for the person's session list.", error });
  }
}

/** Moves a JWT session's record on when its token is re-issued (at most once per `updateAge`). */
export async function touchJwtSession(rt: Runtime, token: JWT, expires: Date): Promise<void> {
  const id = sessionIdOf(token);
  if (id === undefined) return;
  try {
    await recordsOf(rt)!.touch(`${JWT_RECORD}${id}`, { lastSeenAt: new Date(), expires });
  } catch (error) {
    rt.logger.warn("SessionNotRecorded", { message: "A JWT session's record could not be updated.", error });
  }
}

/** The public id of a database session: a digest of its token (the token itself is the bearer secret). */
async function databaseSessionId(sessionToken: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`appauth session id\u0000${sessionToken}`));
  return toHex(new Uint8Array(digest)).slice(0, 32);
}

async function publicIdOf(rt: Runtime, record: AdapterSession): Promise<string> {
  return rt.session.strategy === "jwt" ? record.sessionToken.slice(JWT_RECORD.length) : databaseSessionId(record.sessionToken);
}

/** The live records of `userId` of this strategy, each with its public id. */
async function liveRecords(rt: Runtime, records: SessionRecords, userId: string): Promise<{ id: string; record: AdapterSession }[]> {
  const now = Date.now();
  const jwt = rt.session.strategy === "jwt";
  const mine = (await records.list(userId)).filter(
    (record) => record.userId === userId && record.sessionToken.startsWith(JWT_RECORD) === jwt && record.expires.valueOf() > now,
  );
  return Promise.all(mine.map(async (record) => ({ id: await publicIdOf(rt, record), record })));
}

/**
 * The session `ctx` is made with, or `null` when it carries none that opens (fail closed: a store
 * that cannot be read, a token that does not decode, a JWT without a subject are all "no session").
 */
export async function currentSession(rt: Runtime, ctx: RequestContext): Promise<CurrentSession | null> {
  const token = readSessionCookie(rt, ctx);
  if (!token) return null;
  try {
    if (rt.session.strategy === "database") {
      const found = await loadDatabaseSession(rt, token, Date.now());
      return found ? { userId: found.user.id, id: await databaseSessionId(token), sessionToken: token } : null;
    }
    const decoded = await decodeSessionToken(rt, ctx, token);
    const sub = decoded?.payload.sub;
    return typeof sub === "string" ? { userId: sub, id: sessionIdOf(decoded!.payload) ?? null } : null;
  } catch (error) {
    rt.logger.debug("SessionListRefused", error);
    return null;
  }
}

function required(rt: Runtime): SessionRecords {
  const records = recordsOf(rt);
  if (!records) throw new TypeError("Listing and ending sessions needs an adapter with listSessions and deleteSessions (appauth's adapters have them).");
  return records;
}

function shown(id: string, record: AdapterSession, current: CurrentSession | null): SessionInfo {
  const iso = (date: Date | null | undefined): string | null => (date instanceof Date && Number.isFinite(date.valueOf()) ? date.toISOString() : null);
  return {
    id,
    current: current !== null && current.id === id,
    createdAt: iso(record.createdAt),
    lastSeenAt: iso(record.lastSeenAt),
    signInMethod: record.signInMethod ?? null,
    device: record.device ?? null,
    clientAddress: record.clientAddress ?? null,
    expires: record.expires.toISOString(),
  };
}

/** The sessions of the person `current` is signed in as, newest first, theirs marked. */
export async function listSessions(rt: Runtime, current: CurrentSession): Promise<SessionInfo[]> {
  const live = await liveRecords(rt, required(rt), current.userId);
  const time = (info: SessionInfo): number => Date.parse(info.lastSeenAt ?? info.createdAt ?? "") || 0;
  return live.map(({ id, record }) => shown(id, record, current)).sort((a, b) => time(b) - time(a));
}

/**
 * Ends the session `id` of `userId`. Resolves `false`, changing nothing, when `userId` has no such
 * session (an id of another user's session included: the same answer as an id nobody has).
 */
export async function revokeSession(rt: Runtime, userId: string, id: string): Promise<boolean> {
  const records = required(rt);
  const found = (await liveRecords(rt, records, userId)).find((live) => live.id === id);
  if (!found) return false;
  // Revoked first (JWT): should the store fail next, the session is over though still listed.
  if (rt.session.strategy === "jwt") await revokeSessions(rt, { userId, sessionId: id });
  await records.delete(found.record.sessionToken);
  // With database sessions revokeSessions only reports it: the deleted row was the session.
  if (rt.session.strategy === "database") await revokeSessions(rt, { userId, sessionId: id });
  return true;
}

/**
 * Ends every session of `userId` but `except` (a public id; none: every one). The application's
 * "sign out everywhere" after a password change or a ban. Resolves to how many records went.
 */
export async function revokeAllSessions(rt: Runtime, userId: string, options: { except?: CurrentSession } = {}): Promise<number> {
  const records = required(rt);
  const kept = options.except;
  const target = { userId, ...(kept?.id ? { exceptSessionId: kept.id } : {}) };
  if (rt.session.strategy === "jwt") {
    await revokeSessions(rt, target);
    return records.deleteAll(userId, kept?.id ? `${JWT_RECORD}${kept.id}` : undefined);
  }
  const deleted = await records.deleteAll(userId, kept?.sessionToken);
  await revokeSessions(rt, target);
  return deleted;
}
