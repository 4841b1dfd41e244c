/**
 * GET /session reads the session; POST /session updates it (the client's `update(data)`).
 * The session machine decides; this module supplies its effects and shapes the answer.
 */
import { fromPromise } from "xstate";
import { sessionMachine } from "../../machines/session.machine.js";
import { defaultTokenSession } from "../../machines/shared.js";
import type { Runtime } from "../config/runtime.js";
import { JWTSessionError, SessionTokenError } from "../errors.js";
import type { RequestContext } from "../request-context.js";
import type { ResponsePlan } from "../response.js";
import { clearSessionCookies, decodeSessionToken, encodeSessionCookies, readSessionCookie } from "../session/jwt-session.js";
import type { AdapterUser, JWT, Session } from "../types.js";
import type { BoundDatabaseSession } from "./database-session.js";
import { runFlow } from "./run.js";
import { refresherOf, reportRefresh } from "./token-refresh.js";

export function bindSessionMachine(rt: Runtime) {
  return sessionMachine.provide({
    actors: {
      decodeSessionToken: fromPromise(({ input }) => decodeSessionToken(rt, input.req, input.token)),
      jwtCallback: fromPromise(async ({ input }) => {
        // Snapshot before the callback: it may mutate the token in place.
        const before = JSON.stringify(input.token);
        const token = await rt.callbacks.jwt(
          input.trigger ? { token: input.token, trigger: input.trigger, session: input.session } : { token: input.token },
        );
        return { token: token ?? null, changed: token ? JSON.stringify(token) !== before : false };
      }),
      encodeSessionToken: fromPromise(({ input }) => encodeSessionCookies(rt, input.req, input.token)),
      refreshAccount: fromPromise(async ({ input }) => {
        const { account } = input;
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
      sessionCallback: fromPromise(async ({ input }) => {
        const token: JWT = input.token;
        const session: Session = defaultTokenSession(token, input.expires, input.error);
        return rt.callbacks.session({
          session,
          token,
          // The database strategy's user: absent with JWT sessions.
          user: undefined as unknown as AdapterUser,
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
  const token = readSessionCookie(ctx);
  const common = {
    ...(update ? { update } : {}),
    now: Date.now(),
    updateAge: rt.session.updateAge,
    callbacks: rt.configuredCallbacks,
    refresh: rt.federation.refresh,
    req: ctx,
  };
  const output =
    rt.session.strategy === "database"
      ? await runFlow(rt, machines.database, { ...common, sessionToken: token, maxAge: rt.session.maxAge })
      : await runFlow(rt, machines.jwt, { ...common, token });
  const headers = { "Cache-Control": "private, no-cache, no-store" };
  if (output.outcome === "active") return { json: output.session, cookies: output.cookies, headers };
  if (output.outcome === "invalid") {
    const failed = output.failure?.error !== undefined;
    const database = rt.session.strategy === "database";
    if (failed) {
      const error = database ? new SessionTokenError({ cause: output.failure!.error }) : new JWTSessionError({ cause: output.failure!.error });
      rt.logger.error(error.type, error);
    }
    // Fail closed, but a database session the store could not read (an outage) was not rejected:
    // its cookie stays, so the person is signed in again once the store is back.
    const clear = Boolean(token) && !(database && failed);
    return { json: null, status: update ? 400 : 200, cookies: clear ? clearSessionCookies(ctx) : [], headers };
  }
  return { json: null, status: update ? 400 : 200, headers };
}
