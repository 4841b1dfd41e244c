/**
 * GET /sessions lists the person's sessions; POST /sessions (CSRF-checked) ends one of them, the
 * others, or all. Signed-in only, and only ever the person's own: the records come from their own
 * list (session/registry.ts), so an id of someone else's session is answered exactly like an id
 * nobody has. JSON in and out, for the application's "Your devices" page.
 */
import type { Runtime } from "../config/runtime.js";
import { isStoreFault, STORE_RETRY_AFTER_SECONDS } from "../errors.js";
import type { RequestContext } from "../request-context.js";
import type { ResponsePlan } from "../response.js";
import { clearSessionCookies } from "../session/jwt-session.js";
import {
  canListSessions,
  currentSession,
  listSessions,
  revokeAllSessions,
  revokeSession,
  type CurrentSession,
} from "../session/registry.js";

const NO_STORE = { "Cache-Control": "private, no-cache, no-store" };

/** What a POST /sessions asks: one session by id, or every other one, or all of them. */
export type RevokeRequest = { sessionId: string } | { revoke: "others" | "all" };

/** The request a POST body makes, or `undefined` for one that asks nothing this route does. */
export function revokeRequestOf(body: Record<string, unknown>): RevokeRequest | undefined {
  const { sessionId, revoke } = body;
  if (typeof sessionId === "string" && sessionId !== "" && sessionId.length <= 200 && revoke === undefined) return { sessionId };
  if ((revoke === "others" || revoke === "all") && sessionId === undefined) return { revoke };
  return undefined;
}

/** What ending sessions answers: how many ended, and whether the person's own was one of them. */
export interface RevokeOutcome {
  revoked: number;
  /** The request's own session ended: its cookie is cleared. */
  signedOut: boolean;
}

/** Runs `request` for the person signed in with `current`; `null` when the one session asked for is not theirs (or nobody's). */
export async function runRevoke(rt: Runtime, current: CurrentSession, request: RevokeRequest): Promise<RevokeOutcome | null> {
  if ("sessionId" in request) {
    if (!(await revokeSession(rt, current.userId, request.sessionId))) return null;
    return { revoked: 1, signedOut: request.sessionId === current.id };
  }
  if (request.revoke === "others") return { revoked: await revokeAllSessions(rt, current.userId, { except: current }), signedOut: false };
  return { revoked: await revokeAllSessions(rt, current.userId), signedOut: true };
}

function unavailable(rt: Runtime, error: unknown): ResponsePlan {
  rt.logger.error("StoreUnavailable", error);
  return {
    status: 503,
    json: { error: "StoreUnavailable", message: "The session store is unavailable; try again shortly." },
    headers: { ...NO_STORE, "Retry-After": String(STORE_RETRY_AFTER_SECONDS) },
  };
}

async function handleSessions(rt: Runtime, ctx: RequestContext): Promise<ResponsePlan> {
  if (!canListSessions(rt)) {
    rt.logger.error(
      "MissingAdapterMethods",
      "GET/POST /sessions: database sessions can be listed and ended only with an adapter that has listSessions and deleteSessions (appauth's memory, SQL and Redis adapters do).",
    );
    return { status: 500, json: { error: "Configuration" }, headers: NO_STORE };
  }
  try {
    const current = await currentSession(rt, ctx);
    if (!current) return { status: 401, json: null, headers: NO_STORE };
    if (ctx.method === "GET") return { json: { sessions: await listSessions(rt, current) }, headers: NO_STORE };

    const request = revokeRequestOf(ctx.body);
    if (!request) return { status: 400, json: { error: "InvalidRequest", message: "Send sessionId, or revoke: \"others\" or \"all\"." }, headers: NO_STORE };
    const outcome = await runRevoke(rt, current, request);
    if (!outcome) return { status: 404, json: { error: "SessionNotFound" }, headers: NO_STORE };
    return { json: { revoked: outcome.revoked }, headers: NO_STORE, ...(outcome.signedOut ? { cookies: clearSessionCookies(rt, ctx) } : {}) };
  } catch (error) {
    if (isStoreFault(error)) return unavailable(rt, error);
    throw error;
  }
}

export const routes = { sessions: handleSessions };
