/** GET and POST /session under the database strategy: the effects of the database session machine. */
import { fromEffect } from "./effect.js";
import { databaseSessionMachine } from "../../machines/database-session.machine.js";
import { defaultUserSession } from "../../machines/shared.js";
import type { Runtime } from "../config/runtime.js";
import { writeChunkedCookie } from "../cookies.js";
import { AdapterError } from "../errors.js";
import { loadDatabaseSession, requireAdapter } from "../session/database-session.js";
import { listsSessions } from "../session/record-fields.js";
import { requestOf } from "./run.js";
import type { AdapterAccount, Session } from "../types.js";
import type { RefreshedAccount } from "../../machines/database-session.machine.js";
import type { TokenRefreshLoader } from "./token-refresh-loader.js";

/** `loadRefresh` brings the token refresh when one is first due (see token-refresh-loader.ts). */
export function bindDatabaseSession(rt: Runtime, loadRefresh: TokenRefreshLoader) {
  return databaseSessionMachine.provide({
    actors: {
      loadSession: fromEffect(({ input }) => loadDatabaseSession(rt, input.sessionToken, input.now)),
      extendSession: fromEffect(async ({ input, system }) => {
        const expires = new Date(input.expires);
        const adapter = requireAdapter(rt);
        // Extended at most once per updateAge: when the person's session list says it was last seen.
        const seen = listsSessions(adapter) ? { lastSeenAt: new Date() } : {};
        const updated = await adapter.updateSession!({ sessionToken: input.session.sessionToken, expires, ...seen });
        if (updated === null) throw new AdapterError("The session to extend no longer exists.");
        const session = { ...input.session, ...(updated ?? {}), expires };
        const { jar, cookies } = requestOf(system);
        const { name, options } = cookies.sessionToken;
        return { session, cookies: writeChunkedCookie(jar, name, session.sessionToken, { ...options, expires }) };
      }),
      refreshAccount: fromEffect(({ input }) => refreshStoredAccount(rt, loadRefresh, input)),
      sessionCallback: fromEffect(async ({ input }) => {
        const { user, sessionToken } = input;
        // As Auth.js hands it over: the stored user whole, and the record's userId and sessionToken;
        // with a twoFactor configuration also what the sign-in proved (the JWT's amr and auth_time).
        const session: Session & { userId: string; sessionToken: string; amr?: string[]; authTime?: string } = {
          ...defaultUserSession(user, input.expires, input.error),
          user: { ...user },
          userId: user.id,
          sessionToken,
          ...(input.amr ? { amr: input.amr } : {}),
          ...(input.authTime ? { authTime: input.authTime } : {}),
        };
        const shown = await rt.callbacks.session({
          session,
          user,
          ...(input.account ? { account: input.account } : {}),
          ...(input.trigger ? { trigger: input.trigger, newSession: input.newSession } : {}),
        });
        return withoutSessionToken(shown, sessionToken);
      }),
    },
  });
}

export type BoundDatabaseSession = ReturnType<typeof bindDatabaseSession>;

/**
 * The account a database session was signed in with, its access token refreshed when due: the
 * tokens live in the stored account, so every process reading any of its sessions sees the new ones.
 */
async function refreshStoredAccount(
  rt: Runtime,
  loadRefresh: TokenRefreshLoader,
  input: { provider: string; providerAccountId: string; userId: string; now: number },
): Promise<RefreshedAccount> {
  const { refresherOf, reportRefresh, storedAccount, tokensOf } = await loadRefresh();
  // Unlinked since, or someone else's: there is nothing of this session's to refresh.
  const stored = await storedAccount(rt, input);
  if (!stored) return { account: null };
  const refresher = refresherOf(rt);
  if (!refresher.due(input.provider, tokensOf(stored), input.now)) return { account: stored };
  const outcome = await refresher.refresh({ ...input, tokens: tokensOf(stored) });
  reportRefresh(rt, input.provider, outcome);
  switch (outcome.outcome) {
    case "refreshed":
      return { account: { ...stored, ...outcome.tokens } as AdapterAccount };
    case "refused":
      return { account: { ...stored, refresh_token: undefined } as AdapterAccount, error: "RefreshTokenError" };
    case "unavailable":
      return { account: stored, error: "RefreshTokenUnavailable" };
    default:
      return { account: stored };
  }
}

/**
 * The session token is the bearer secret of the session, kept from scripts by an httpOnly cookie. A
 * callback that returns the session it was given (common in Auth.js apps) would hand it to the
 * browser's JavaScript: it is removed from the result, wherever the callback left it at the top level.
 */
function withoutSessionToken<S extends object>(shown: S, sessionToken: string): S {
  if (!shown || typeof shown !== "object") return shown;
  const entries = Object.entries(shown);
  if (!entries.some(([, value]) => value === sessionToken)) return shown;
  return Object.fromEntries(entries.filter(([, value]) => value !== sessionToken)) as S;
}
