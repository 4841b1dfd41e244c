/**
 * The database session: the cookie holds only a random session token; the record (user id and
 * absolute expiry) lives in the adapter's store. Reading is one adapter call (session joined with
 * its user); the expiry is pushed forward at most once per `updateAge`.
 */
import type { Runtime } from "../config/runtime.js";
import { writeChunkedCookie, type SetCookie } from "../cookies.js";
import type { ExtendedAdapter } from "../adapters/extensions.js";
import { InvalidConfiguration, MissingAdapter } from "../errors.js";
import type { RequestContext } from "../request-context.js";
import type { Account, Adapter, AdapterSession, AdapterUser } from "../types.js";
import { listsSessions, recordFields } from "./record-fields.js";
import { providerSessionId } from "./session-account.js";
import { isReadableSessionToken, MAX_SESSION_TOKEN_LENGTH } from "./token-shape.js";

function accountLink(account: Account): Pick<AdapterSession, "provider" | "providerAccountId" | "providerSessionId"> {
  const sid = providerSessionId(account);
  return { provider: account.provider, providerAccountId: account.providerAccountId, ...(sid ? { providerSessionId: sid } : {}) };
}

export function requireAdapter(rt: Runtime): Adapter {
  if (!rt.adapter) throw new MissingAdapter("This flow needs an adapter.");
  return rt.adapter;
}

/**
 * Whether the adapter records what a session proved (`amr`, `authTime`): one that keeps second factors
 * and session records (appauth's `getTwoFactors` and `listSessions`) does, and the conformance suite
 * holds it to that. Any other (a published @auth/* adapter, or one with two-factor methods added to
 * it) is not handed the fields, which it would drop or choke on, so its sessions prove no recent
 * second factor: changing factors there fails closed.
 */
export function recordsProof(adapter: unknown): boolean {
  return typeof (adapter as ExtendedAdapter | undefined)?.getTwoFactors === "function" && listsSessions(adapter);
}

/**
 * Creates a session record for `userId` and the cookie that carries its token. A session signed in
 * with an OAuth/OIDC account records that account and the provider's session id (`sid`), so its
 * access token can be refreshed and a back-channel logout can find it. `amr` (RFC 8176, with a
 * `twoFactor` configuration) is recorded with the time of the sign-in where the adapter keeps it.
 */
export async function issueDatabaseSession(
  rt: Runtime,
  ctx: RequestContext,
  userId: string,
  account?: Account,
  amr?: string[],
): Promise<SetCookie[]> {
  const adapter = requireAdapter(rt);
  const sessionToken = rt.session.generateSessionToken();
  // A token no later request could read (token-shape.ts) would sign the person in for one response.
  if (typeof sessionToken !== "string" || !isReadableSessionToken(sessionToken)) {
    throw new InvalidConfiguration(
      `session.generateSessionToken returned a token that cannot be read back: use at most ${MAX_SESSION_TOKEN_LENGTH} characters of A-Z a-z 0-9 - _ + / = . ~ (a UUID or random hex works).`,
    );
  }
  const expires = new Date(Date.now() + rt.session.maxAge * 1000);
  // Only an adapter that knows the session links (appauth's extension) is handed them: one that keeps
  // to the Auth.js contract (a published @auth/* adapter) would store or choke on unknown fields.
  const linksSessions = typeof (adapter as ExtendedAdapter).deleteSessionsByAccount === "function";
  const link = linksSessions && account && (account.type === "oauth" || account.type === "oidc") ? accountLink(account) : {};
  // The same for what a person's session list shows (record-fields.ts).
  const details = listsSessions(adapter) ? recordFields(rt, ctx, account) : {};
  const proof = amr && recordsProof(adapter) ? { amr, authTime: new Date() } : {};
  const session = await adapter.createSession!({ sessionToken, userId, expires, ...link, ...details, ...proof });
  const { name, options } = ctx.cookies.sessionToken;
  return writeChunkedCookie(ctx.jar, name, session.sessionToken, { ...options, expires: session.expires });
}

/** The session record and its user, or null when there is none or it has expired (then it is removed). */
export async function loadDatabaseSession(
  rt: Runtime,
  sessionToken: string,
  now: number,
): Promise<{ session: AdapterSession; user: AdapterUser } | null> {
  const adapter = requireAdapter(rt);
  const found = await adapter.getSessionAndUser!(sessionToken);
  if (!found) return null;
  // An expiry the store cannot express as a date is no session (fail closed, never a crash).
  const expires = found.session.expires instanceof Date ? found.session.expires.valueOf() : Number.NaN;
  if (!Number.isFinite(expires)) return null;
  if (expires <= now) {
    await adapter.deleteSession!(sessionToken);
    return null;
  }
  return found;
}

/** Whether a session read at `now` is due to have its expiry pushed forward (at most once per updateAge). */
export function databaseSessionDue(rt: Runtime, session: AdapterSession, now: number): boolean {
  const lastExtended = session.expires.valueOf() - rt.session.maxAge * 1000;
  return now - lastExtended >= rt.session.updateAge * 1000;
}
