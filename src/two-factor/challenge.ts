/**
 * The second-factor challenge: `GET /two-factor-challenge` shows the built-in page (an authenticator
 * code, or a recovery code), `POST /two-factor-challenge` (CSRF) checks what was typed against the
 * pending sign-in's user and resumes the sign-in completion, which then writes what the first factor
 * alone could not and issues the session. A wrong code goes back to the page with `?error=` (never the
 * code). Attempts count per user and per client address in the configuration's rate-limit store, and
 * past the limit a code is refused without being checked (`RateLimited`).
 */
import type { signInCompletionMachine} from "../../machines/signin-completion.machine.js";
import { type SignInCompletionInput, type TwoFactorStep } from "../../machines/signin-completion.machine.js";
import type { ExtendedAdapter } from "../adapters/extensions.js";
import { bound, type Runtime } from "../config/runtime.js";
import { Verification, type AuthError } from "../errors.js";
import { refusalError } from "../flows/failure.js";
import { deliver, runFlow } from "../flows/run.js";
import { bindSignInCompletion, CHALLENGE_PATH } from "../flows/signin-completion.js";
import { html } from "../pages/html.js";
import { renderDocument } from "../pages/layout.js";
import { normalizeUrl } from "../redirect.js";
import { requestFacts, type RequestContext } from "../request-context.js";
import type { ResponsePlan } from "../response.js";
import { recoveryCodeCandidates } from "./recovery-codes.js";
import { openSecret } from "./secret-box.js";
import { verifyTotp } from "./totp.js";
import { clearPendingSignIn, readPendingSignIn, usePendingSignIn, type OpenedPendingSignIn } from "./pending.js";
import type { SecondFactorType } from "./types.js";
import { answerEnrollment, showEnrollment } from "./signin-enrollment.js";
import { resolveCsrf } from "../csrf.js";

/** Wrong codes allowed per user (and, fivefold, per client address) in one window. */
export const ATTEMPTS_PER_USER = 5;
const ATTEMPTS_PER_ADDRESS = 25;
const WINDOW_MS = 15 * 60 * 1000;

/** The completion bound once per configuration (its effects), as every flow binds its machine. */
function completionOf(rt: Runtime): typeof signInCompletionMachine {
  return bound(rt, bindSignInCompletion);
}

const MESSAGES: Record<string, string> = {
  InvalidCode: "That code did not work. Check your authenticator app and try again.",
  RateLimited: "Too many attempts. Wait a few minutes, then try again.",
};

/** GET: the challenge page, or the sign-in page when no sign-in is waiting for a second factor. */
export async function showChallenge(rt: Runtime, ctx: RequestContext): Promise<ResponsePlan> {
  const pending = await readPendingSignIn(rt, ctx);
  if (!pending) return { redirect: `${ctx.baseUrl}/signin?error=Verification` };
  if (pending.enrollSecret) return showEnrollment(rt, ctx, pending);
  const csrf = await resolveCsrf(ctx.jar, ctx.cookies.csrfToken, rt.secrets);
  const error = MESSAGES[ctx.query.get("error") ?? ""];
  const action = `${ctx.baseUrl}${CHALLENGE_PATH}`;
  const body = html`<h1>Two-step verification</h1>${error ? html`<p class="error" role="alert">${error}</p>` : ""}
<form method="post" action="${action}"><input type="hidden" name="csrfToken" value="${csrf.token}">
<label for="code">Code from your authenticator app</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="8" required autofocus>
<button type="submit">Verify</button></form>
<details><summary>Use a recovery code</summary>
<form method="post" action="${action}"><input type="hidden" name="csrfToken" value="${csrf.token}">
<label for="recoveryCode">Recovery code</label>
<input id="recoveryCode" name="recoveryCode" type="text" autocomplete="off" autocapitalize="none" spellcheck="false" required>
<button type="submit">Verify</button></form></details>`;
  return {
    status: 200,
    html: renderDocument({ title: "Two-step verification", theme: rt.theme, body, centered: true }),
    ...(csrf.cookie ? { cookies: [csrf.cookie] } : {}),
  };
}

/** Counts one attempt for the user and the client address; `false` when past a limit (nothing is then checked). */
async function withinLimits(rt: Runtime, ctx: RequestContext, userId: string): Promise<boolean> {
  const limiter = rt.rateLimit;
  if (!limiter) return true;
  const namespace = await limiter.namespace();
  const address = limiter.address(ctx.request);
  const user = await limiter.store.hit(`${namespace}2fa:u:${userId}`, WINDOW_MS);
  if (user.count > ATTEMPTS_PER_USER) return false;
  if (!address) return true;
  return (await limiter.store.hit(`${namespace}2fa:a:${address}`, WINDOW_MS)).count <= ATTEMPTS_PER_ADDRESS;
}

/** Which factor the typed code proves for `userId`, used up (a TOTP step or a recovery code works once); `null` for none. */
async function provedFactor(rt: Runtime, userId: string, form: Record<string, unknown>): Promise<SecondFactorType | null> {
  const adapter = rt.adapter as ExtendedAdapter;
  const { code, recoveryCode } = form;
  if (typeof code === "string" && code.trim()) {
    for (const factor of await adapter.getTwoFactors!(userId)) {
      if (!factor.active || factor.type !== "totp") continue;
      const secret = await openSecret(factor.secret, rt.secrets);
      if (!secret) continue;
      const step = await verifyTotp(secret, code, Date.now());
      if (step !== null && step > factor.lastUsedStep && (await adapter.useTotpStep!(userId, factor.id, step))) return "totp";
    }
    return null;
  }
  if (typeof recoveryCode === "string" && recoveryCode.trim()) {
    for (const hash of await recoveryCodeCandidates(recoveryCode, rt.secrets)) {
      if (await adapter.useRecoveryCode!(userId, hash)) return "recovery";
    }
  }
  return null;
}

/** POST: checks the code, then resumes the pending sign-in. */
export async function answerChallenge(rt: Runtime, ctx: RequestContext): Promise<ResponsePlan | AuthError> {
  const pending = await readPendingSignIn(rt, ctx);
  if (!pending) return new Verification("No sign-in is waiting for a second factor in this browser, or it expired (five minutes).");
  if (pending.enrollSecret) return answerEnrollment(rt, ctx, pending, resume);
  const again = (error: string): ResponsePlan => ({ redirect: `${ctx.baseUrl}${CHALLENGE_PATH}?error=${error}` });
  if (!(await withinLimits(rt, ctx, pending.userId))) {
    await rt.events.twoFactorFailed?.({ userId: pending.userId, rateLimited: true });
    return again("RateLimited");
  }
  const factor = await provedFactor(rt, pending.userId, ctx.body);
  if (!factor) {
    await rt.events.twoFactorFailed?.({ userId: pending.userId, rateLimited: false });
    return again("InvalidCode");
  }
  // Single use: of two requests with one cookie, only one goes on.
  if (!(await usePendingSignIn(rt, pending))) {
    return new Verification("This sign-in already passed its second factor; sign in again.");
  }
  await rt.events.twoFactorPassed?.({ userId: pending.userId, type: factor });
  await clearAttempts(rt, pending.userId);
  return resume(rt, ctx, pending);
}

async function clearAttempts(rt: Runtime, userId: string): Promise<void> {
  const limiter = rt.rateLimit;
  if (!limiter) return;
  try {
    await limiter.store.reset(`${await limiter.namespace()}2fa:u:${userId}`);
  } catch (error) {
    rt.logger.error("RateLimitStoreError", "The rate-limit store could not clear the second-factor attempts of a passed challenge.", error);
  }
}

/** Runs the completion again with the factor proved; it writes, issues the session and judges where to go. */
async function resume(rt: Runtime, ctx: RequestContext, pending: OpenedPendingSignIn, step: Partial<TwoFactorStep> = {}): Promise<ResponsePlan | AuthError> {
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
      return { redirect: output.redirectTo, cookies: [...cleared, ...output.cookies] };
    case "diverted":
      return { redirect: normalizeUrl(output.redirectTo, ctx.origin), cookies: cleared };
    case "challenge":
      // Cannot happen: a proved factor passes the gate. Refused rather than looped.
      return refusalError({ error: undefined, as: "AccessDenied" });
    case "refused":
      return refusalError(output.failure);
  }
}
