/**
 * What a machine test hands to its machine: the request (machines only pass it through to their
 * effects, so one realistic, fixed value is enough; tests compare it by identity), and, for the flows
 * that span two requests, the state the second request restores them in.
 */
import type {
  CallbackParams,
  EmailInput,
  emailMachine,
  OAuthInput,
  oauthMachine,
} from "../../machines/index.js";
import type { EmailContext } from "../../machines/email.machine.js";
import type { OAuthContext } from "../../machines/oauth.machine.js";
import type { Resumption } from "./run-actor.js";
import type { LimitVerdict, RequestFacts } from "../../machines/index.js";
import { returns, throws } from "./effect-paths.js";

/** The request's plain facts, as a flow's input carries them; another `origin` tells two requests apart. */
export function facts(origin = "https://app.example"): RequestFacts {
  return { origin, baseUrl: `${origin}/auth`, secure: origin.startsWith("https:") };
}

/**
 * The OAuth flow as the callback resumes it: at `awaitingCallback`, with the context the callback
 * handler builds afresh from the provider's configuration and the callback's request facts (nothing
 * of the first request is carried but the check cookies, which `restoreChecks` reads), then sent the
 * provider's answer.
 */
export function oauthCallback(
  input: OAuthInput & { hasAdapter: boolean },
  params: CallbackParams,
): Resumption<typeof oauthMachine> {
  const { callbackUrl: _asked, authorizationParams: _params, ...facts } = input;
  const context: OAuthContext = {
    ...facts,
    callbackUrl: input.request.origin,
    authorizationParams: {},
    flowCookies: [],
    emailVerified: false,
    sessionCookies: [],
    events: [],
  };
  return { value: "awaitingCallback", context, event: { type: "callback.received", params } };
}

/**
 * Whether `value` is data a flow can persist or show: primitives, arrays and plain objects (and the
 * dates a stored user carries), never a function or a live object (a Request, URLSearchParams, a URL).
 */
export function isPlainData(value: unknown): boolean {
  if (typeof value === "function") return false;
  if (value === null || typeof value !== "object") return true;
  if (Array.isArray(value)) return value.every(isPlainData);
  if (value instanceof Date) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && Object.values(value).every(isPlainData);
}

/**
 * The email flow as a followed link resumes it: at `awaitingLink`, with the context the callback
 * handler builds from the link's request alone (the first request leaves nothing behind but the stored
 * token), then sent the link's token and address. `link.email` is the address the link carries, as
 * the person's browser sends it back (not yet normalised), and `link.callbackUrl` its callbackUrl.
 */
export function emailLink(link: EmailInput, token: string): Resumption<typeof emailMachine> {
  const context: EmailContext = {
    providerId: link.providerId,
    email: "",
    callbackUrl: link.callbackUrl,
    request: link.request,
    sessionCookies: [],
    events: [],
  };
  return { value: "awaitingLink", context, event: { type: "link.followed", token, email: link.email, request: link.request } };
}

/** The request ceiling's outcomes, for the machines that count it first (OAuth start, passkey options). */
export const tooManyRequests: LimitVerdict = { allowed: false, retryAfter: 7, counts: { requests: 101 }, scope: "requests", limit: "requests" };
export const limiterDown = new Error("checkRequestLimit: the rate-limit store failed");
export const requestLimitOutcomes = [
  returns("allows the request", (): LimitVerdict => ({ allowed: true, retryAfter: 0, counts: { requests: 1 }, scope: "requests" })),
  returns("refuses (too many requests)", () => tooManyRequests),
  throws("throws", limiterDown),
];
