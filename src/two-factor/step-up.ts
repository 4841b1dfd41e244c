/**
 * Step-up: a signed-in person proves their second factor again before a sensitive action, and keeps
 * the session they have. `GET <basePath>/step-up?callbackUrl=…` shows the code page; `POST` (CSRF
 * token, like every form) checks an authenticator code or a recovery code against the session's own
 * user and re-issues the *same* session with the proof: `amr` gains `otp` and `mfa`, and the time of
 * proof is now (a JWT keeps its `appauthSid`; a database session's record gets `amr` and `authTime`).
 * Then the browser goes to `callbackUrl`, judged by the `redirect` callback as every redirect is.
 *
 * The session cookie is what binds a step-up to its browser and user, so nothing else is held while
 * the page is open. Attempts share the challenge's limits (per user and per client address); a
 * wrong code comes back to the page with `?error=`, never with the code. A signed-out visitor is sent
 * to sign in (which asks for the factor anyway) and on to `callbackUrl`; a person with no active
 * factor gets `SecondFactorRequired` (403) with a link to `/two-factor` to add one.
 */
import { amrOf } from "../../machines/signin-completion.machine.js";
import type { TwoFactorAdapter } from "../adapters/extensions.js";
import type { Runtime } from "../config/runtime.js";
import type { SetCookie } from "../cookies.js";
import { resolveCsrf } from "../csrf.js";
import { AdapterError, AuthError, SecondFactorRequired } from "../errors.js";
import { signInPageUrl } from "../flows/pages.js";
import { html } from "../pages/html.js";
import { renderDocument } from "../pages/layout.js";
import { renderTwoFactorChallengePage } from "../pages/two-factor-challenge.js";
import { requestedCallbackUrl, resolveRedirectUrl } from "../redirect.js";
import { type RequestContext, wantsJson } from "../request-context.js";
import type { ResponsePlan } from "../response.js";
import { clearLegacySessionCookie, encodeSessionCookies, legacySessionOf } from "../session/jwt-session.js";
import { touchJwtSession } from "../session/registry.js";
import type { AdapterSession } from "../types.js";
import { CHALLENGE_MESSAGES, clearAttempts, withinLimits } from "./challenge.js";
import { useRecoveryCode, useTotpCode, type CodeContext } from "./codes.js";
import { hasSecondFactor } from "./enrollment.js";
import { recentSecondFactor } from "./recent.js";
import { signedIn, type SignedIn } from "./session-proof.js";
import type { SecondFactorType } from "./types.js";
import { STEP_UP_PATH, stepUpPageUrl } from "./step-up-url.js";


/** The challenge's words for the refusals a step-up can meet (it takes no passkey). */
const MESSAGES: Record<string, string> = { InvalidCode: CHALLENGE_MESSAGES.InvalidCode!, RateLimited: CHALLENGE_MESSAGES.RateLimited! };

const NO_FACTOR = "This needs a second factor, and your account has none yet. Add an authenticator app, then come back.";

/** Where the person goes once the factor is proved: the asked `callbackUrl` as the `redirect` callback judges it. */
function callbackUrlOf(rt: Runtime, ctx: RequestContext): Promise<string> {
  return resolveRedirectUrl(requestedCallbackUrl(ctx), ctx, rt.callbacks.redirect);
}


/** The answers for a request that cannot step up: the feature is off, nobody is signed in, or no factor. */
async function cannotStepUp(rt: Runtime, ctx: RequestContext, who: SignedIn | null, callbackUrl: string): Promise<ResponsePlan | null> {
  if (!rt.twoFactor || !rt.adapter) return { status: 404, json: { error: "NotFound", message: "Second factors are not enabled here (the `twoFactor` option)." } };
  if (!who) {
    if (wantsJson(ctx)) return { status: 401, json: { error: "SessionRequired", message: "Sign in first." } };
    // Signing in asks for the second factor itself, and lands where the step-up would have.
    return { redirect: signInPageUrl(rt, ctx, new URLSearchParams({ callbackUrl })) };
  }
  if (await hasSecondFactor({ adapter: rt.adapter as unknown as TwoFactorAdapter }, who.userId)) return null;
  rt.logger.debug("SecondFactorRequired", new SecondFactorRequired("A step-up was asked of a user with no active second factor.").message);
  const enrollUrl = `${ctx.baseUrl}/two-factor`;
  if (wantsJson(ctx)) return { status: 403, json: { error: "SecondFactorRequired", message: NO_FACTOR, enrollUrl } };
  const body = html`<h1>Add a second factor</h1><p class="error" role="alert">${NO_FACTOR}</p>
<p><a href="${enrollUrl}">Set up an authenticator app</a></p>`;
  return { status: 403, html: renderDocument({ title: "Add a second factor", theme: rt.theme, body, centered: true }) };
}

/** GET: the page asking for the factor. */
export async function showStepUp(rt: Runtime, ctx: RequestContext): Promise<ResponsePlan> {
  const callbackUrl = await callbackUrlOf(rt, ctx);
  const who = await signedIn(rt, ctx);
  const refused = await cannotStepUp(rt, ctx, who, callbackUrl);
  if (refused) return refused;
  if (wantsJson(ctx)) return { status: 200, json: { stepUpRequired: true, action: `${ctx.baseUrl}${STEP_UP_PATH}` } };
  const csrf = await resolveCsrf(ctx.jar, ctx.cookies.csrfToken, rt.secrets);
  const error = MESSAGES[ctx.query.get("error") ?? ""];
  // The challenge's page, its forms posting here with where to go next (a URL, never anything typed).
  const page = renderTwoFactorChallengePage({ theme: rt.theme, csrfToken: csrf.token, actionUrl: stepUpPageUrl(ctx.baseUrl, callbackUrl), ...(error ? { error } : {}) });
  return { status: page.status, html: page.html, ...(csrf.cookie ? { cookies: [csrf.cookie] } : {}) };
}

/** POST: checks the code against the session's user; past it, the same session, with the proof, and on to `callbackUrl`. */
export async function answerStepUp(rt: Runtime, ctx: RequestContext): Promise<ResponsePlan | AuthError> {
  const callbackUrl = await callbackUrlOf(rt, ctx);
  const who = await signedIn(rt, ctx);
  const refused = await cannotStepUp(rt, ctx, who, callbackUrl);
  if (refused) return refused;
  const { userId } = who!;
  const again = (error: string): ResponsePlan =>
    wantsJson(ctx) ? { status: error === "RateLimited" ? 429 : 400, json: { error } } : { redirect: stepUpPageUrl(ctx.baseUrl, callbackUrl, error) };
  if (!(await withinLimits(rt, ctx, userId))) {
    await rt.events.twoFactorFailed?.({ userId, rateLimited: true });
    return again("RateLimited");
  }
  const factor = await provedCode(rt, userId, ctx.body);
  if (!factor) {
    await rt.events.twoFactorFailed?.({ userId, rateLimited: false });
    return again("InvalidCode");
  }
  await rt.events.twoFactorPassed?.({ userId, type: factor });
  await clearAttempts(rt, userId);
  const cookies = await reissueWithProof(rt, ctx, who!);
  if (cookies instanceof AuthError) return cookies;
  if (wantsJson(ctx)) return { status: 200, json: { url: callbackUrl }, cookies };
  return { redirect: callbackUrl, cookies };
}

/** Which factor the typed `code` or `recoveryCode` proves for `userId`, used up (each works once); null for none. */
async function provedCode(rt: Runtime, userId: string, form: Record<string, unknown>): Promise<SecondFactorType | null> {
  const factors: CodeContext = { adapter: rt.adapter as unknown as TwoFactorAdapter, secret: rt.secrets };
  const { code, recoveryCode } = form;
  if (typeof code === "string" && code.trim()) return (await useTotpCode(factors, { userId, code })) !== null ? "totp" : null;
  if (typeof recoveryCode === "string" && recoveryCode.trim()) return (await useRecoveryCode(factors, { userId, code: recoveryCode })) ? "recovery" : null;
  return null;
}

/** What the session proved before, plus the second factor just proved now (RFC 8176). */
function steppedUpAmr(before: unknown): string[] {
  const firstFactor = Array.isArray(before) ? before.filter((value): value is string => typeof value === "string" && value !== "mfa") : [];
  return amrOf({ firstFactor, proved: ["otp"] });
}

/**
 * The same session, now saying a second factor was proved at this moment: a JWT is re-issued with its
 * session id and sign-in time (and its record in the person's session list moves on); a database
 * session's record is updated in place, so its cookie does not change.
 */
async function reissueWithProof(rt: Runtime, ctx: RequestContext, who: SignedIn): Promise<SetCookie[] | AuthError> {
  const amr = steppedUpAmr(who.proved.amr);
  const now = Date.now();
  if (who.session.strategy === "database") {
    const { sessionToken } = who.session.record;
    const proof = { sessionToken, amr, authTime: new Date(now) } as Partial<AdapterSession> & Pick<AdapterSession, "sessionToken">;
    const updated = await rt.adapter!.updateSession!(proof);
    // An adapter that does not keep the proof would send the person round the step-up for ever.
    if (!recentSecondFactor(updated as never, 60, { now })) {
      rt.logger.error("SecondFactorNotRecorded", "A passed step-up could not be recorded on the database session.");
      return new AdapterError("The adapter's updateSession did not keep the session's amr and authTime: a step-up cannot be recorded on this store.");
    }
    return [];
  }
  const token = { ...who.session.payload, amr, auth_time: Math.floor(now / 1000) };
  const { cookies, expires } = await encodeSessionCookies(rt, ctx, token);
  await touchJwtSession(rt, token, new Date(expires));
  const legacy = legacySessionOf(rt, ctx);
  return legacy ? [...cookies, ...clearLegacySessionCookie(ctx, legacy)] : cookies;
}
