/** GET and POST /session under the database strategy: the effects of the database session machine. */
import { fromPromise } from "xstate";
import { databaseSessionMachine } from "../../machines/database-session.machine.js";
import { defaultUserSession } from "../../machines/shared.js";
import type { Runtime } from "../config/runtime.js";
import { writeChunkedCookie } from "../cookies.js";
import { AdapterError } from "../errors.js";
import { loadDatabaseSession, requireAdapter } from "../session/database-session.js";
import type { Session } from "../types.js";

export function bindDatabaseSession(rt: Runtime) {
  return databaseSessionMachine.provide({
    actors: {
      loadSession: fromPromise(({ input }) => loadDatabaseSession(rt, input.sessionToken, input.now)),
      extendSession: fromPromise(async ({ input }) => {
        const expires = new Date(input.expires);
        const updated = await requireAdapter(rt).updateSession!({ sessionToken: input.session.sessionToken, expires });
        if (updated === null) throw new AdapterError("The session to extend no longer exists.");
        const session = { ...input.session, ...(updated ?? {}), expires };
        const { name, options } = input.req.cookies.sessionToken;
        return { session, cookies: writeChunkedCookie(input.req.jar, name, session.sessionToken, { ...options, expires }) };
      }),
      sessionCallback: fromPromise(async ({ input }) => {
        const { user } = input;
        const session: Session = defaultUserSession(user, input.expires);
        return rt.callbacks.session({
          session,
          user,
          // The JWT strategy's token: absent with database sessions.
          token: undefined as never,
          ...(input.trigger ? { trigger: input.trigger, newSession: input.newSession } : {}),
        });
      }),
    },
  });
}

export type BoundDatabaseSession = ReturnType<typeof bindDatabaseSession>;
