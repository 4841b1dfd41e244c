/**
 * The second-factor challenge: `GET /two-factor-challenge` shows the built-in page (an authenticator
 * code, a recovery code, or a passkey when the user has one), `POST /two-factor-challenge` (CSRF)
 * checks the answer against the pending sign-in's user and resumes the sign-in completion, which then
 * writes what the first factor alone could not and issues the session. `op=passkey-options` answers
 * with the passkey ceremony's options instead (see passkey.ts). A wrong answer goes back to the page
 * with `?error=` (never the code). Attempts count per user and per client address in the
 * configuration's rate-limit store, and past the limit an answer is refused without being checked
 * (`RateLimited`). With `rememberBrowser` on, the page offers to remember the browser, and a passed
 * answer with the box ticked sets the cookie of remember.ts beside the session.
 */
import type { signInCompletionMachine} from "../../machines/signin-completion.machine.js";
import { type SignInCompletionInput, type TwoFactorStep } from "../../machines/signin-completion.machine.js";
import type { TwoFactorAdapter } from "../adapters/extensions.js";
import { bound, type Runtime } from "../config/runtime.js";
import { Verification, WebAuthnVerificationError, type AuthError } from "../errors.js";
import { refusalError } from "../flows/failure.js";
import { deliver, runFlow } from "../flows/run.js";
import { bindSignInCompletion, CHALLENGE_PATH } from "../flows/signin-completion.js";
import { renderTwoFactorChallengePage } from "../pages/two-factor-challenge.js";
import { normalizeUrl } from "../redirect.js";
import { requestFacts, type RequestContext } from "../request-context.js";
import type { ResponsePlan } from "../response.js";
import { useRecoveryCode, useTotpCode, type CodeContext } from "./codes.js";
import { challengePasskeys, passkeyChallengeOptions, provePasskey } from "./passkey.js";
import { clearPendingSignIn, readPendingSignIn, usePendingSignIn, type OpenedPendingSignIn } from "./pending.js";
import type { SecondFactorType } from "./types.js";
import { answerEnrollment, showEnrollment } from "./signin-enrollment.js";
import { rememberBrowser, rememberMaxAge } from "./remember.js";
import { resolveCsrf } from "../csrf.js";

/** Wrong codes allowed per user (and, fivefold, per client address) in one window. */
export const ATTEMPTS_PER_USER = 5;
const ATTEMPTS_PER_ADDRESS = 25;
const WINDOW_MS = 15 * 60 * 1000;

/** The completion bound once per configuration (its effects), as every flow binds its machine. */
function completionOf(rt: Runtime): typeof signInCompletionMachine {
  return bound(rt, bindSignInCompletion);
}

/** What the page says for each refusal named in `?error=` (shared with the step-up page). */
export const CHALLENGE_MESSAGES: Record<string, string> = {
  InvalidCode: "That code did not work. Check your authenticator app and try again.",
  InvalidPasskey: "That passkey could not be used. Try again, or use a code.",
  RateLimited: "Too many attempts. Wait a few minutes, then try again.",
};

/** GET: the challenge page, or the sign-in page when no sign-in is waiting for a second factor. */
export async function showChallenge(rt: Runtime, ctx: RequestContext): Promise<ResponsePlan> {
  const pending = await readPendingSignIn(rt, ctx);
  if (!pending) return { redirect: `${ctx.baseUrl}/signin?error=Verification` };
  if (pending.enrollSecret) return showEnrollment(rt, ctx, pending);
  const csrf = await resolveCsrf(ctx.jar, ctx.cookies.csrfToken, rt.secrets);
  const error = CHALLENGE_MESSAGES[ctx.query.get("error") ?? ""];
  const page = renderTwoFactorChallengePage({
    theme: rt.theme,
    csrfToken: csrf.token,
    actionUrl: `${ctx.baseUrl}${CHALLENGE_PATH}`,
    ...(error ? { error } : {}),
    passkey: (await challengePasskeys(rt, pending)) !== null,
    ...rememberOffer(rt),
  });
  return { status: page.status, html: page.html, ...(csrf.cookie ? { cookies: [csrf.cookie] } : {}) };
}

/** The page's "Remember this browser for N days" box, when `rememberBrowser` is on. */
function rememberOffer(rt: Runtime): { rememberDays?: number } {
  const maxAge = rememberMaxAge(rt.twoFactor);
  return maxAge === null ? {} : { rememberDays: Math.max(1, Math.round(maxAge / 86_400)) };
}

/** Counts one attempt for the user and the client address; `false` when past a limit (nothing is then checked). */
export async function withinLimits(rt: Runtime, ctx: RequestContext, userId: string): Promise<boolean> {
  const limiter = rt.rateLimit;
  if (!limiter) return true;
  const namespace = await limiter.namespace();
  const address = limiter.address(ctx.request);
  const user = await limiter.store.hit(`${namespace}2fa:u:${userId}`, WINDOW_MS);
  if (user.count > ATTEMPTS_PER_USER) return false;
  if (!address) return true;
  return (await limiter.store.hit(`${namespace}2fa:a:${address}`, WINDOW_MS)).count <= ATTEMPTS_PER_ADDRESS;
}

/** What an answer proved, used up (a TOTP step, a recovery code, a passkey challenge works once); else the error the page shows. */
type Checked = { factor: SecondFactorType } | { error: "InvalidCode" | "InvalidPasskey" };

/** Checks the posted answer (`code`, `recoveryCode` or `passkey`) against `pending`'s user's factors. */
async function checkAnswer(rt: Runtime, ctx: RequestContext, pending: OpenedPendingSignIn): Promise<Checked> {
  const factors: CodeContext = { adapter: rt.adapter as unknown as TwoFactorAdapter, secret: rt.secrets };
  const { userId } = pending;
  const { code, recoveryCode, passkey } = ctx.body;
  if (typeof passkey === "string" && passkey.trim()) {
    try {
      await provePasskey(rt, ctx, pending, passkey);
      return { factor: "webauthn" };
    } catch (error) {
      // A refused answer is the person's; a store that fails is not (it goes up as it does for codes).
      if (!(error instanceof WebAuthnVerificationError)) throw error;
      rt.logger.debug("TwoFactorPasskey", error);
      return { error: "InvalidPasskey" };
    }
  }
  if (typeof code === "string" && code.trim()) return (await useTotpCode(factors, { userId, code })) !== null ? { factor: "totp" } : { error: "InvalidCode" };
  if (typeof recoveryCode === "string" && recoveryCode.trim()) {
    return (await useRecoveryCode(factors, { userId, code: recoveryCode })) ? { factor: "recovery" } : { error: "InvalidCode" };
  }
  return { error: "InvalidCode" };
}

/** RFC 8176 methods each factor proves: a code is a one-time password, a passkey a hardware-held key. */
const PROVES: Record<SecondFactorType, string> = { totp: "otp", recovery: "otp", webauthn: "hwk" };

/** `op=passkey-options`: the options for `navigator.credentials.get()` (JSON), when the waiting user has a passkey. */
async function passkeyOptions(rt: Runtime, ctx: RequestContext, pending: OpenedPendingSignIn): Promise<ResponsePlan> {
  const options = await passkeyChallengeOptions(rt, ctx, pending);
  if (!options) return { status: 400, json: { error: WebAuthnVerificationError.type, message: "No passkey can answer this challenge." } };
  return { json: { options } };
}

/** POST: the passkey options (`op=passkey-options`), or checks the answer, then resumes the pending sign-in. */
export async function answerChallenge(rt: Runtime, ctx: RequestContext): Promise<ResponsePlan | AuthError> {
  const pending = await readPendingSignIn(rt, ctx);
  if (!pending) return new Verification("No sign-in is waiting for a second factor in this browser, or it expired (five minutes).");
  if (pending.enrollSecret) return answerEnrollment(rt, ctx, pending, resume);
  if (ctx.body.op === "passkey-options") return passkeyOptions(rt, ctx, pending);
  const again = (error: string): ResponsePlan => ({ redirect: `${ctx.baseUrl}${CHALLENGE_PATH}?error=${error}` });
  if (!(await withinLimits(rt, ctx, pending.userId))) {
    await rt.events.twoFactorFailed?.({ userId: pending.userId, rateLimited: true });
    return again("RateLimited");
  }
  const checked = await checkAnswer(rt, ctx, pending);
  if ("error" in checked) {
    await rt.events.twoFactorFailed?.({ userId: pending.userId, rateLimited: false });
    return again(checked.error);
  }
  const { factor } = checked;
  // Single use: of two requests with one cookie, only one goes on.
  if (!(await usePendingSignIn(rt, pending))) {
    return new Verification("This sign-in already passed its second factor; sign in again.");
  }
  await rt.events.twoFactorPassed?.({ userId: pending.userId, type: factor });
  await clearAttempts(rt, pending.userId);
  // The box is honoured only while the option is on (rememberBrowser makes no cookie otherwise).
  const remember = ctx.body.remember === "1" || ctx.body.remember === "on";
  return resumeSignIn(rt, ctx, pending, { step: { proved: [PROVES[factor]] }, remember });
}

export async function clearAttempts(rt: Runtime, userId: string): Promise<void> {
  const limiter = rt.rateLimit;
  if (!limiter) return;
  try {
    await limiter.store.reset(`${await limiter.namespace()}2fa:u:${userId}`);
  } catch (error) {
    rt.logger.error("RateLimitStoreError", "The rate-limit store could not clear the second-factor attempts of a passed challenge.", error);
  }
}

/** Resumes after an enrollment the sign-in led to (see signin-enrollment.ts). */
function resume(rt: Runtime, ctx: RequestContext, pending: OpenedPendingSignIn, step: Partial<TwoFactorStep>): Promise<ResponsePlan | AuthError> {
  return resumeSignIn(rt, ctx, pending, { step });
}

/**
 * Runs the completion again with the factor proved; it writes, issues the session and judges where to
 * go. `remember`: a signed-in browser is also remembered for the user (`rememberBrowser`).
 */
async function resumeSignIn(
  rt: Runtime,
  ctx: RequestContext,
  pending: OpenedPendingSignIn,
  options: { step: Partial<TwoFactorStep>; remember?: boolean },
): Promise<ResponsePlan | AuthError> {
  const { step } = options;
  const firstFactor = pending.input.twoFactor?.firstFactor ?? [];
  const input: SignInCompletionInput = {
    ...pending.input,
    request: requestFacts(ctx),
    twoFactor: { firstFactor, proved: ["otp"], ...step },
  };
  const cleared = clearPendingSignIn(ctx);
  const output = await runFlow(rt, completionOf(rt), input, ctx);
  switch (output.outcome) {
    case "signedIn":
      for (const event of output.events) await deliver(rt, event as unknown as Parameters<typeof deliver>[1]);
      return {
        redirect: output.redirectTo,
        cookies: [...cleared, ...output.cookies, ...(options.remember ? await rememberBrowser(rt, ctx, pending.userId) : [])],
      };
    case "diverted":
      return { redirect: normalizeUrl(output.redirectTo, ctx.origin), cookies: cleared };
    case "challenge":
      // Cannot happen: a proved factor passes the gate. Refused rather than looped.
      return refusalError({ error: undefined, as: "AccessDenied" });
    case "refused":
      return refusalError(output.failure);
  }
}
