/**
 * How a sign-in's outcome answers the browser, for every provider type: signed in, to the URL the
 * completion resolved, with its cookies; challenged, to the second-factor page with the pending cookie; diverted, to the signIn callback's destination made an
 * absolute http(s) URL (never the callback's string as it is); refused, with the error and whatever
 * cookies the flow must still set (its single-use checks, cleared).
 */
import type { FlowFailure } from "../../machines/shared.js";
import type { SetCookie } from "../cookies.js";
import type { AuthError } from "../errors.js";
import { normalizeUrl } from "../redirect.js";
import type { RequestContext } from "../request-context.js";
import type { ResponsePlan } from "../response.js";
import { refusalError } from "./failure.js";

/** A sign-in flow's output, as each sign-in machine ends. */
export type SignInOutcome =
  | { outcome: "signedIn"; redirectTo: string; cookies: SetCookie[] }
  | { outcome: "challenged"; redirectTo: string; cookies: SetCookie[] }
  | { outcome: "diverted"; redirectTo: string; cookies?: SetCookie[] }
  | { outcome: "refused"; failure: FlowFailure; cookies?: SetCookie[] };

/** The answer: a plan, or an error whose page still sets the flow's cookies. */
export type SignInAnswer = { plan: ResponsePlan } | { error: AuthError; cookies: SetCookie[] };

/** Maps a sign-in's outcome to its answer; `refusal` names the error a refusal shows (default: by its cause). */
export function signInAnswer(
  ctx: Pick<RequestContext, "origin">,
  output: SignInOutcome,
  refusal: (failure: FlowFailure) => AuthError = refusalError,
): SignInAnswer {
  switch (output.outcome) {
    case "signedIn":
    case "challenged":
      return { plan: { redirect: output.redirectTo, cookies: output.cookies } };
    case "diverted": {
      const redirect = normalizeUrl(output.redirectTo, ctx.origin);
      return { plan: output.cookies ? { redirect, cookies: output.cookies } : { redirect } };
    }
    case "refused":
      return { error: refusal(output.failure), cookies: output.cookies ?? [] };
  }
}

/** For a flow whose refusals set no cookies: the plan, or the error. */
export function planOrError(answer: SignInAnswer): ResponsePlan | AuthError {
  return "plan" in answer ? answer.plan : answer.error;
}
