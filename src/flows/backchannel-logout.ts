/**
 * POST /backchannel-logout/:provider: the back-channel logout machine bound to the provider's
 * discovery and keys (verification) and to the adapter (the token's claim, the sessions it ends).
 * Answers as §2.8 asks: 200 when the logout was done, 400 with `invalid_request` for a bad request
 * or token, 503 when a store or the provider could not answer; never cached.
 */
import { fromEffect } from "./effect.js";
import { backchannelLogoutMachine } from "../../machines/backchannel-logout.machine.js";
import type { Runtime } from "../config/runtime.js";
import type { ExtendedAdapter } from "../adapters/extensions.js";
import { AuthError } from "../errors.js";
import { providerServers } from "../oauth/servers.js";
import { verifyLogoutToken } from "../oauth/logout-token.js";
import type { OAuthProviderConfig } from "../providers/oauth-types.js";
import type { RequestContext } from "../request-context.js";
import type { ResponsePlan } from "../response.js";
import { flowRoute } from "./flow-route.js";
import { requireAdapter } from "../session/database-session.js";
import { runFlow } from "./run.js";

const NO_STORE = { "Cache-Control": "no-store" };

// Configuration refuses back-channel logout without an adapter and these methods.
const adapterOf = (rt: Runtime): ExtendedAdapter => requireAdapter(rt) as ExtendedAdapter;

export function bindBackchannelLogout(rt: Runtime) {
  const { serverOf, keys } = providerServers(rt);
  const providerOf = (id: string): OAuthProviderConfig => rt.providerById.get(id) as OAuthProviderConfig;

  return backchannelLogoutMachine.provide({
    actors: {
      verifyLogoutToken: fromEffect(async ({ input }) => {
        const provider = providerOf(input.providerId);
        const as = await serverOf(provider);
        return verifyLogoutToken(input.token, { provider, as, keys }, { now: input.now, maxAge: input.maxAge });
      }),
      rememberLogoutToken: fromEffect(async ({ input }) => {
        const { acquireLease } = adapterOf(rt);
        if (!acquireLease) throw new Error("The adapter has no acquireLease.");
        return acquireLease.call(rt.adapter, input.key, input.holder, input.expires);
      }),
      endSessions: fromEffect(async ({ input }) => {
        const { deleteSessionsByAccount } = adapterOf(rt);
        if (!deleteSessionsByAccount) throw new Error("The adapter has no deleteSessionsByAccount.");
        return deleteSessionsByAccount.call(rt.adapter, input);
      }),
      // Without releaseLease the claim stays until it expires: a redelivery within maxAge is then refused.
      forgetLogoutToken: fromEffect(async ({ input }) => {
        await adapterOf(rt).releaseLease?.call(rt.adapter, input.key, input.holder);
      }),
    },
  });
}

export type BoundBackchannelLogout = ReturnType<typeof bindBackchannelLogout>;

/** Whether the request's body is a form (§2.5): its media type, parameters aside. */
function isFormPost(request: Request): boolean {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  return type === "application/x-www-form-urlencoded";
}

export async function handleBackchannelLogout(
  rt: Runtime,
  machine: BoundBackchannelLogout,
  ctx: RequestContext,
  provider: OAuthProviderConfig,
): Promise<ResponsePlan> {
  const posted = ctx.body.logout_token;
  const accepted = rt.federation.backchannelLogout.get(provider.id);
  const output = await runFlow(rt, machine, {
    providerId: provider.id,
    ...(accepted ? { maxAge: accepted.maxAge } : {}),
    form: isFormPost(ctx.request),
    // Every value: a logout_token sent twice is refused, not settled by picking one.
    logoutTokens: ctx.form ? ctx.form.getAll("logout_token") : posted === undefined ? [] : [posted],
    now: Math.floor(Date.now() / 1000),
    holder: crypto.randomUUID(),
  });
  switch (output.outcome) {
    case "loggedOut":
      rt.logger.debug("BackchannelLogout", `${provider.id}: ${output.count} session(s) ended`, { sub: output.sub, sid: output.sid });
      return { status: 200, headers: NO_STORE, json: {} };
    case "refused":
      rt.logger.warn("BackchannelLogoutRefused", `${provider.id}: ${output.description}`);
      return { status: 400, headers: NO_STORE, json: { error: "invalid_request", error_description: output.description } };
    case "failed":
      for (const failure of output.failures) {
        const error = failure.error;
        rt.logger.error(error instanceof AuthError ? error.type : "BackchannelLogoutError", error);
      }
      return {
        status: 503,
        headers: { ...NO_STORE, "Retry-After": "5" },
        json: { error: "temporarily_unavailable", error_description: "The logout could not be done now; try again." },
      };
  }
}

/** The route this flow serves: the provider's logout token. */
export const routes = { logout: flowRoute(bindBackchannelLogout, handleBackchannelLogout) };
