/**
 * POST /callback/:provider for a credentials provider: the form's fields go to `authorize`, and
 * the credentials sign-in machine takes it from there.
 */
import { fromPromise } from "xstate";
import { credentialsSignInMachine, type CredentialsSignInOutput } from "../../machines/credentials-signin.machine.js";
import type { Runtime } from "../config/runtime.js";
import {
  AccessDenied,
  AuthError,
  CallbackRouteError,
  CredentialsSignin,
  OAuthAccountNotLinked,
  OAuthCallbackError,
  EmailSignInError,
  InvalidConfiguration,
  Verification,
  WebAuthnVerificationError,
} from "../errors.js";
import { normalizeUrl, resolveRedirectUrl } from "../redirect.js";
import type { RequestContext } from "../request-context.js";
import type { ResponsePlan } from "../response.js";
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

/** The error a refused credentials sign-in is reported as. */
export function refusalError(failure: Extract<CredentialsSignInOutput, { outcome: "refused" }>["failure"]): AuthError {
  const { error, as } = failure;
  if (error instanceof CredentialsSignin) return error;
  if (as === "CredentialsSignin") return new CredentialsSignin();
  if (as === "OAuthAccountNotLinked") return new OAuthAccountNotLinked("The account is already linked to another user.");
  if (as === "EmailSignInError") return error instanceof EmailSignInError ? error : new EmailSignInError({ cause: error });
  if (as === "Verification") return new Verification("The sign-in link is invalid, used or expired.");
  if (as === "WebAuthnVerificationError") {
    return error instanceof WebAuthnVerificationError ? error : new WebAuthnVerificationError("The passkey did not verify.", { cause: error });
  }
  if (as === "Configuration" && !(error instanceof AuthError)) {
    return new InvalidConfiguration(error instanceof Error ? error.message : "The flow failed.", { cause: error });
  }
  if (as === "OAuthCallbackError") {
    if (error instanceof OAuthCallbackError) return error;
    const message = error instanceof Error ? error.message : "The OAuth callback could not be completed.";
    return new OAuthCallbackError(message, { cause: error });
  }
  if (as === "AccessDenied") {
    if (error instanceof AuthError && error.type === "AccessDenied") return error;
    const message = error instanceof Error ? error.message : undefined;
    return new AccessDenied(message || "The signIn callback refused the sign-in.", { cause: error });
  }
  if (error instanceof AuthError) return error;
  return new CallbackRouteError("The sign-in could not be completed.", { cause: error });
}

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
