/**
 * Enrollment on the way in (`twoFactor.required`): a user who must have a second factor and has none is
 * stopped by the sign-in completion (`holdingPendingEnrollment` → `awaitingEnrollment`) exactly where a
 * user with a factor is stopped for the challenge, with the same single-use, five-minute pending cookie,
 * which here also carries a new authenticator app's secret (sealed). `GET /two-factor-challenge` then
 * shows that app's QR code and key; a correct code `POST`ed there uses the pending sign-in up and resumes
 * the completion with the app confirmed, which stores it as the user's active factor (the confirming
 * step spent) after everything else the sign-in writes and right before the session, whose `amr` says
 * `otp`. The new recovery codes are shown once, on the page that then continues to where the person
 * was going. Nothing is stored for an enrollment that is abandoned: the secret lived only in the cookie.
 *
 * No attempt limit here: the person holding the cookie is shown the secret, so guessing gains nothing.
 */
import type { EnrolledFactor } from "../../machines/signin-completion.machine.js";
import type { TwoFactorAdapter } from "../adapters/extensions.js";
import type { Runtime } from "../config/runtime.js";
import { resolveCsrf } from "../csrf.js";
import { Verification, type AuthError } from "../errors.js";
import { html, safeLinkUrl, trustedHtml } from "../pages/html.js";
import { renderDocument } from "../pages/layout.js";
import type { RequestContext } from "../request-context.js";
import type { ResponsePlan } from "../response.js";
import type { AdapterUser, User } from "../types.js";
import { regenerateRecoveryCodes } from "./enrollment.js";
import { usePendingSignIn, type OpenedPendingSignIn } from "./pending.js";
import { qrCodeSvg } from "./qr.js";
import { openSecret } from "./secret-box.js";
import { otpauthUri, verifyTotp } from "./totp.js";

/** The path of the challenge route, which also serves enrollment (kept here to import nothing of it). */
const PATH = "/two-factor-challenge";

/** Recovery codes made by a sign-in's enrollment, by the request that made them: never in a machine's context. */
const madeCodes = new WeakMap<RequestContext, string[]>();

/** Whether `user` must have a second factor under the configuration's `required` policy. */
export async function secondFactorRequired(rt: Runtime, user: User | AdapterUser): Promise<boolean> {
  const required = rt.twoFactor?.required;
  if (typeof required === "function") return (await required(user)) === true;
  return required === true;
}

/** The site's name in authenticator apps, as the `/two-factor` route names it. */
function issuerOf(rt: Runtime, ctx: RequestContext): string {
  const host = new URL(ctx.origin).hostname;
  return rt.twoFactor?.issuer ?? (rt.theme.brandName?.replace(/:/g, "").trim() || host);
}

/**
 * Stores the app a sign-in's enrollment confirmed as the user's active factor, its confirming step
 * spent, and makes the user's first recovery codes (kept for the answer to `ctx`).
 */
export async function storeEnrolledFactor(rt: Runtime, ctx: RequestContext, userId: string, enrolled: EnrolledFactor): Promise<void> {
  const adapter = rt.adapter as unknown as TwoFactorAdapter;
  const factorId = crypto.randomUUID();
  await adapter.createTwoFactor({
    id: factorId,
    userId,
    type: "totp",
    createdAt: new Date(),
    label: null,
    secret: enrolled.secret,
    lastUsedStep: enrolled.step,
    active: true,
  });
  await rt.events.twoFactorEnrolled?.({ userId, type: "totp", factorId });
  const codes = await regenerateRecoveryCodes({ adapter, secret: rt.secrets, issuer: "", ...(rt.twoFactor?.recoveryCodes ? { recoveryCodes: rt.twoFactor.recoveryCodes } : {}) }, userId);
  madeCodes.set(ctx, codes);
  await rt.events.twoFactorEnrolled?.({ userId, type: "recovery", factorId: "recovery" });
}

const MESSAGES: Record<string, string> = {
  InvalidCode: "That code did not work. Check that the app shows this site, and enter the code it shows now.",
};

/** GET: the enrollment page of a pending sign-in that must first enroll an authenticator app. */
export async function showEnrollment(rt: Runtime, ctx: RequestContext, pending: OpenedPendingSignIn): Promise<ResponsePlan> {
  const secret = pending.enrollSecret ? await openSecret(pending.enrollSecret, rt.secrets) : null;
  if (!secret) return { redirect: `${ctx.baseUrl}/signin?error=Verification` };
  const csrf = await resolveCsrf(ctx.jar, ctx.cookies.csrfToken, rt.secrets);
  const account = pending.input.user.email || pending.input.user.name || "account";
  const uri = otpauthUri({ secret, issuer: issuerOf(rt, ctx), label: account });
  const qr = qrCodeSvg(uri, { label: "QR code to scan with your authenticator app" });
  const error = MESSAGES[ctx.query.get("error") ?? ""];
  const body = html`<h1>Set up two-step verification</h1>${error ? html`<p class="error" role="alert">${error}</p>` : ""}
<p>This account needs a second step to sign in. Scan the code with an authenticator app, or type the key into it, then enter the code it shows.</p>
<figure class="qr">${trustedHtml(qr)}</figure>
<p>Key: <code>${secret.replace(/(.{4})/g, "$1 ").trim()}</code></p>
<form method="post" action="${ctx.baseUrl}${PATH}"><input type="hidden" name="csrfToken" value="${csrf.token}">
<label for="code">Code from your authenticator app</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="8" required autofocus>
<button type="submit">Turn on and continue</button></form>`;
  return {
    status: 200,
    html: renderDocument({ title: "Set up two-step verification", theme: rt.theme, body, centered: true }),
    ...(csrf.cookie ? { cookies: [csrf.cookie] } : {}),
  };
}

/** How the challenge route resumes a pending sign-in, with what this step adds to its second-factor step. */
export type Resume = (rt: Runtime, ctx: RequestContext, pending: OpenedPendingSignIn, step: { enrolled: EnrolledFactor }) => Promise<ResponsePlan | AuthError>;

/** POST: a code from the new app confirms it; the sign-in resumes, stores it, and issues the session. */
export async function answerEnrollment(rt: Runtime, ctx: RequestContext, pending: OpenedPendingSignIn, resume: Resume): Promise<ResponsePlan | AuthError> {
  const secret = pending.enrollSecret ? await openSecret(pending.enrollSecret, rt.secrets) : null;
  if (!secret) return new Verification("The enrollment this sign-in was led to cannot be read; sign in again.");
  const code = ctx.body.code;
  const step = typeof code === "string" && code.trim() ? await verifyTotp(secret, code, Date.now()) : null;
  if (step === null) return { redirect: `${ctx.baseUrl}${PATH}?error=InvalidCode` };
  if (!(await usePendingSignIn(rt, pending))) return new Verification("This sign-in already went on; sign in again.");
  const plan = await resume(rt, ctx, pending, { enrolled: { secret: pending.enrollSecret!, step } });
  const codes = madeCodes.get(ctx);
  madeCodes.delete(ctx);
  if (!codes || !("redirect" in plan) || typeof plan.redirect !== "string") return plan;
  return { status: 200, html: recoveryCodesPage(rt, codes, plan.redirect), ...(plan.cookies ? { cookies: plan.cookies } : {}), headers: { "cache-control": "private, no-cache, no-store" } };
}

/** The new recovery codes, shown this once, then on to where the sign-in was going. */
function recoveryCodesPage(rt: Runtime, codes: string[], next: string): string {
  const body = html`<h1>Two-step verification is on</h1>
<p>Save these recovery codes somewhere safe. Each works once, if you lose your authenticator app. They are not shown again.</p>
<ul class="recovery-codes">${codes.map((code) => html`<li><code>${code}</code></li>`)}</ul>
<p><a class="button" href="${safeLinkUrl(next, "/")}">Continue</a></p>`;
  return renderDocument({ title: "Two-step verification is on", theme: rt.theme, body, centered: true });
}
