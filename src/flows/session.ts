/**
 * GET /session reads the session; POST /session updates it (the client's `update(data)`).
 * The session machine decides; this module supplies its effects and shapes the answer.
 */
import { fromEffect } from "./effect.js";
import { sessionMachine } from "../../machines/session.machine.js";
import { defaultTokenSession } from "../../machines/shared.js";
import type { Runtime } from "../config/runtime.js";
import { loadDatabaseSession } from "../session/database-session.js";
import { isStoreFault, JWTSessionError, SessionTokenError, STORE_RETRY_AFTER_SECONDS, type StoreUnavailable } from "../errors.js";
import { requestFacts, type RequestContext } from "../request-context.js";
import type { ResponsePlan } from "../response.js";
import { writeChunkedCookie, type SetCookie } from "../cookies.js";
import {
  clearLegacySessionCookie,
  clearSessionCookies,
  decodeSessionToken,
  encodeSessionCookies,
  legacySessionOf,
  readSessionCookie,
  hasUnreadableSessionCookie,
} from "../session/jwt-session.js";
import type { JWT, Session } from "../types.js";
import { keepUnverifiedSignIn, UNVERIFIED_SIGN_IN_CLAIM } from "../session/unverified-sign-in.js";
import { sessionClaimsOf, withSessionClaims } from "../session/revocation.js";
import type { BoundDatabaseSession } from "./database-session.js";
import { requestOf, runFlow } from "./run.js";
import type { TokenRefreshLoader } from "./token-refresh-loader.js";

/**
 * Told of each re-issued JWT (its expiry pushed forward, at most once per `updateAge`, or changed):
 * the full library moves the session's record on (registry.ts); the middleware passes none, so its
 * reads never write to a store.
 */
export type OnReissued = (rt: Runtime, token: JWT, expires: Date) => Promise<void>;

/** `loadRefresh` brings the token refresh when one is first due (see token-refresh-loader.ts). */
export function bindSessionMachine(rt: Runtime, loadRefresh: TokenRefreshLoader, onReissued?: OnReissued) {
  return sessionMachine.provide({
    actors: {
      decodeSessionToken: fromEffect(({ input, system }) => decodeSessionToken(rt, requestOf(system), input.token)),
      jwtCallback: fromEffect(async ({ input }) => {
        // Snapshot before the callback: it may mutate the token in place.
        const before = JSON.stringify(input.token);
        const signedInAt = input.token[UNVERIFIED_SIGN_IN_CLAIM];
        const session = sessionClaimsOf(input.token);
        const returned = await rt.callbacks.jwt(
          input.trigger ? { token: input.token, trigger: input.trigger, session: input.session } : { token: input.token },
        );
        // A token that must be checked against the store stays so, whatever the callback returned.
        const kept = keepUnverifiedSignIn(signedInAt, returned ?? null);
        // Its session's id and sign-in time too: a re-issued token stays the same, revocable session.
        const token = kept && typeof kept === "object" ? withSessionClaims(kept, session) : kept;
        return { token, changed: token ? JSON.stringify(token) !== before : false };
      }),
      encodeSessionToken: fromEffect(async ({ input, system }) => {
        const encoded = await encodeSessionCookies(rt, requestOf(system), input.token);
        await onReissued?.(rt, input.token, new Date(encoded.expires));
        return encoded;
      }),
      refreshAccount: fromEffect(async ({ input }) => {
        const { account } = input;
        const { refresherOf, reportRefresh } = await loadRefresh();
        const outcome = await refresherOf(rt).refresh({
          provider: account.provider,
          providerAccountId: account.providerAccountId,
          ...(input.userId !== undefined ? { userId: input.userId } : {}),
          tokens: account,
          now: input.now,
        });
        reportRefresh(rt, account.provider, outcome);
        return outcome;
      }),
      sessionCallback: fromEffect(async ({ input }) => {
        const token: JWT = input.token;
        const session: Session = defaultTokenSession(token, input.expires, input.error);
        return rt.callbacks.session({
          session,
          token,
          ...(input.trigger ? { trigger: input.trigger, newSession: input.newSession } : {}),
        });
      }),
    },
  });
}

export type BoundSessionMachine = ReturnType<typeof bindSessionMachine>;

export async function handleSession(
  rt: Runtime,
  machines: { jwt: BoundSessionMachine; database: BoundDatabaseSession },
  ctx: RequestContext,
): Promise<ResponsePlan> {
  const update = ctx.method === "POST" ? { data: ctx.body.data } : undefined;
  const token = readSessionCookie(rt, ctx);
  const common = {
    ...(update ? { update } : {}),
    now: Date.now(),
    updateAge: rt.session.updateAge,
    callbacks: rt.configuredCallbacks,
    refresh: rt.federation.refresh,
    request: requestFacts(ctx),
  };
  const output =
    rt.session.strategy === "database"
      ? await runFlow(rt, machines.database, { ...common, sessionToken: token, maxAge: rt.session.maxAge }, ctx)
      : await runFlow(rt, machines.jwt, { ...common, token }, ctx);
  const headers = { "Cache-Control": "private, no-cache, no-store" };
  if (output.outcome === "active") {
    const legacy = legacySessionOf(rt, ctx);
    const adopted = legacy ? await adoptedSessionCookies(rt, ctx, output.cookies, token!) : null;
    // The old cookie goes only once ours has taken its place.
    const cookies = legacy && adopted ? [...adopted, ...clearLegacySessionCookie(ctx, legacy)] : output.cookies;
    return { json: output.session, cookies, headers };
  }
  if (output.outcome === "invalid") {
    const fault = output.failure?.error;
    if (isStoreFault(fault)) return storeFaultAnswer(rt, fault);
    const failed = fault !== undefined;
    const database = rt.session.strategy === "database";
    if (failed) {
      const error = database ? new SessionTokenError({ cause: output.failure!.error }) : new JWTSessionError({ cause: output.failure!.error });
      rt.logger.error(error.type, error);
    }
    // Fail closed, but a database session the store could not read (an outage) was not rejected:
    // its cookie stays, so the person is signed in again once the store is back.
    const clear = Boolean(token) && !(database && failed);
    return { json: null, status: update ? 400 : 200, cookies: clear ? clearSessionCookies(rt, ctx) : [], headers };
  }
  // A cookie that could not be a token was never looked up; it goes, as an invalid one would.
  const unreadable = hasUnreadableSessionCookie(rt, ctx);
  return { json: null, status: update ? 400 : 200, ...(unreadable ? { cookies: clearSessionCookies(rt, ctx) } : {}), headers };
}

/**
 * A session the store could not read (down, too slow): not "signed out", and not cacheable. `503` with
 * `Retry-After` and a typed body, the cookie kept: a client keeps the session it knew, middleware does
 * not send the person to sign in, and once the store is back the same cookie reads again. `auth()`
 * reads this as `null` (fail closed). The log names the adapter's error (the cause).
 */
function storeFaultAnswer(rt: Runtime, error: StoreUnavailable): ResponsePlan {
  rt.logger.error(error.type, error);
  return {
    status: 503,
    json: { error: error.type, message: "The session store is unavailable; try again shortly." },
    headers: { "Cache-Control": "private, no-cache, no-store", "Retry-After": String(STORE_RETRY_AFTER_SECONDS) },
  };
}

/**
 * A session read from an Auth.js cookie moves into ours: a JWT session was re-issued by the machine
 * (it opened under a foreign key); a database session keeps its stored token, now in our cookie.
 */
async function adoptedSessionCookies(rt: Runtime, ctx: RequestContext, cookies: SetCookie[], token: string): Promise<SetCookie[] | null> {
  const { name, options } = ctx.cookies.sessionToken;
  if (cookies.some((cookie) => cookie.name === name || cookie.name.startsWith(`${name}.`))) return cookies;
  // The stored expiry, not the session JSON's (a session callback may have changed or dropped it).
  // A store that fails now leaves the old cookie in place; the next read moves it.
  const stored = await loadDatabaseSession(rt, token, Date.now()).catch(() => null);
  if (!stored) return null;
  return [...cookies, ...writeChunkedCookie(ctx.jar, name, token, { ...options, expires: new Date(stored.session.expires) })];
}
