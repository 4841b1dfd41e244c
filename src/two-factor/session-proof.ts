/**
 * Who the request's session says is signed in and what that session proved (RFC 8176 `amr` and the
 * time of the last proof), for either session strategy: the JWT's claims, or the database record.
 * A revoked, expired or unreadable session is nobody. Used by the routes that need a recent second
 * factor (`/two-factor`, `/step-up`) and by the step-up helpers of the integrations.
 */
import type { Runtime } from "../config/runtime.js";
import type { RequestContext } from "../request-context.js";
import { loadDatabaseSession } from "../session/database-session.js";
import { decodeSessionToken, readSessionCookie } from "../session/jwt-session.js";
import type { AdapterSession, JWT } from "../types.js";
import type { ProvedFactors } from "./recent.js";

/** The session's user, what it proved, and the session itself (to re-issue it after a step-up). */
export interface SignedIn {
  userId: string;
  accountName: string;
  proved: ProvedFactors;
  session: { strategy: "jwt"; payload: JWT } | { strategy: "database"; record: AdapterSession };
}

/** The session's user and what it proved; null when nobody is signed in. */
export async function signedIn(rt: Runtime, ctx: RequestContext): Promise<SignedIn | null> {
  const token = readSessionCookie(rt, ctx);
  if (!token) return null;
  if (rt.session.strategy === "database") {
    const found = await loadDatabaseSession(rt, token, Date.now());
    if (!found) return null;
    const { user, session } = found;
    return { userId: user.id, accountName: user.email ?? user.name ?? user.id, proved: session as ProvedFactors, session: { strategy: "database", record: session } };
  }
  const decoded = await decodeSessionToken(rt, ctx, token);
  const payload = decoded?.payload;
  const sub = payload?.sub;
  if (!payload || typeof sub !== "string" || !sub) return null;
  const { email, name } = payload;
  const accountName = typeof email === "string" && email ? email : typeof name === "string" && name ? name : sub;
  return { userId: sub, accountName, proved: payload as ProvedFactors, session: { strategy: "jwt", payload } };
}
