/** POST /signout: the sign-out machine ends the session; the cookies go whatever it reports. */
import { fromPromise } from "xstate";
import { signOutMachine } from "../../machines/signout.machine.js";
import type { Runtime } from "../config/runtime.js";
import { SignOutError } from "../errors.js";
import { resolveRedirectUrl } from "../redirect.js";
import type { RequestContext } from "../request-context.js";
import type { ResponsePlan } from "../response.js";
import { clearSessionCookies, decodeSessionToken, readSessionCookie } from "../session/jwt-session.js";
import { requireAdapter } from "../session/database-session.js";
import { runFlow } from "./run.js";

export function bindSignOut(rt: Runtime) {
  if (rt.session.strategy === "database") {
    return signOutMachine.provide({
      actors: {
        readSession: fromPromise(async ({ input }) => ({
          session: (await requireAdapter(rt).getSessionAndUser!(input.token))?.session ?? null,
        })),
        endSession: fromPromise(async ({ input }) => {
          await requireAdapter(rt).deleteSession!(input.token);
        }),
        resolveRedirect: fromPromise(({ input }) => resolveRedirectUrl(input.url, input.req, rt.callbacks.redirect)),
      },
    });
  }
  return signOutMachine.provide({
    actors: {
      readSession: fromPromise(async ({ input }) => ({
        token: (await decodeSessionToken(rt, input.req, input.token))?.payload ?? null,
      })),
      // A JWT session lives only in the cookie, which the response clears.
      endSession: fromPromise(async () => {}),
      resolveRedirect: fromPromise(({ input }) => resolveRedirectUrl(input.url, input.req, rt.callbacks.redirect)),
    },
  });
}

export type BoundSignOut = ReturnType<typeof bindSignOut>;

export async function handleSignOut(rt: Runtime, machine: BoundSignOut, ctx: RequestContext): Promise<ResponsePlan> {
  const requested = ctx.body.callbackUrl ?? ctx.jar.get(ctx.cookies.callbackUrl.name);
  const output = await runFlow(rt, machine, {
    token: readSessionCookie(ctx),
    callbackUrl: typeof requested === "string" ? requested : ctx.origin,
    req: ctx,
  });
  for (const failure of output.failures) rt.logger.error("SignOutError", new SignOutError({ cause: failure.error }));
  return { redirect: output.redirectTo || ctx.origin, cookies: clearSessionCookies(ctx) };
}
