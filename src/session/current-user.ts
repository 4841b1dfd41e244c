/** Who is already signed in on this browser: a new account or passkey links to them. */
import type { Runtime } from "../config/runtime.js";
import type { RequestContext } from "../request-context.js";
import { loadDatabaseSession } from "./database-session.js";
import { decodeSessionToken, readSessionCookie } from "./jwt-session.js";

/** The id of the user signed in with the request's session cookie, for either strategy; else undefined. */
export async function currentUser(rt: Runtime, ctx: RequestContext): Promise<string | undefined> {
  const token = readSessionCookie(rt, ctx);
  if (!token) return undefined;
  try {
    if (rt.session.strategy === "database") {
      return (await loadDatabaseSession(rt, token, Date.now()))?.user.id;
    }
    const decoded = await decodeSessionToken(rt, ctx, token);
    return typeof decoded?.payload.sub === "string" ? decoded.payload.sub : undefined;
  } catch {
    return undefined;
  }
}
