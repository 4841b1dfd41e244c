/**
 * Reading the session of an incoming request from server code, for every integration: what
 * `GET /session` would answer, computed in-process by the session machines (`session-read.ts`),
 * refreshing access tokens that are due. It fails closed: whatever goes wrong (a config that does
 * not resolve, a callback that throws, a store that is down) is `null` and is logged.
 */
import { loadTokenRefresh } from "../flows/token-refresh-loader.js";
import { touchJwtSession } from "../session/registry.js";
import type { AuthConfigInput, Session } from "../types.js";
import { resolveAndRead, sessionReader, sessionRequestOf, type SessionRead, type SessionReader } from "./session-read.js";

export type { SessionRead, SessionRequest } from "./session-read.js";

/** The reader of the full library: its session flows refresh tokens as the route handler's do. */
export const readSessionOf: SessionReader = sessionReader(loadTokenRefresh, touchJwtSession);

/**
 * The session of `request` and the cookies reading it produced. Never throws. A lazy config is
 * called once, with `request`.
 *
 * ```ts
 * const { session, cookies } = await readSession(request, config);
 * ```
 */
export async function readSession(request: Request, config: AuthConfigInput): Promise<SessionRead> {
  return resolveAndRead(readSessionOf, sessionRequestOf(request), config, () => request);
}

/** The session of `request`, or `null` (no session, or anything that prevented reading one). */
export async function getSession(request: Request, config: AuthConfigInput): Promise<Session | null> {
  return (await readSession(request, config)).session;
}
