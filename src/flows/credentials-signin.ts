/**
 * POST /callback/:provider for a credentials provider: the form's fields go to `authorize`, and
 * the credentials sign-in machine takes it from there.
 */
import { fromPromise } from "xstate";
import { credentialsSignInMachine } from "../../machines/credentials-signin.machine.js";
import type { Runtime } from "../config/runtime.js";
import type { AuthError } from "../errors.js";
import { normalizeUrl, resolveRedirectUrl } from "../redirect.js";
import type { RequestContext } from "../request-context.js";
import type { ResponsePlan } from "../response.js";
import { refusalError } from "./failure.js";
import { bindSignInCompletion } from "./signin-completion.js";
import type { CredentialsConfig } from "../types.js";
import { runFlow } from "./run.js";

export function bindCredentialsSignIn(rt: Runtime) {
  return credentialsSignInMachine.provide({
    actors: {
      authorize: fromPromise(async ({ input }) => {
        const provider = rt.providerById.get(input.providerId) as CredentialsConfig;
        return (await provider.authorize(input.credentials, input.req.request)) ?? null;
      }),
      completeSignIn: bindSignInCompletion(rt),
      resolveRedirect: fromPromise(({ input }) => resolveRedirectUrl(input.url, input.req, rt.callbacks.redirect)),
    },
  });
}

export type BoundCredentialsSignIn = ReturnType<typeof bindCredentialsSignIn>;


const RESERVED_FIELDS = new Set(["csrfToken", "callbackUrl"]);

export async function handleCredentialsCallback(
  rt: Runtime,
  machine: BoundCredentialsSignIn,
  ctx: RequestContext,
  providerId: string,
): Promise<ResponsePlan | AuthError> {
  const credentials: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(ctx.body)) if (!RESERVED_FIELDS.has(key)) credentials[key] = value;
  const requested = ctx.body.callbackUrl ?? ctx.jar.get(ctx.cookies.callbackUrl.name);
  const output = await runFlow(rt, machine, {
    providerId,
    credentials,
    callbackUrl: typeof requested === "string" ? requested : ctx.origin,
    hasAdapter: rt.adapter !== undefined,
    req: ctx,
  });
  switch (output.outcome) {
    case "signedIn":
      return { redirect: output.redirectTo, cookies: output.cookies };
    case "diverted":
      return { redirect: normalizeUrl(output.redirectTo, ctx.origin) };
    case "refused":
      return refusalError(output.failure);
  }
}
