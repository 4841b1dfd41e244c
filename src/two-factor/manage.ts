/**
 * `/two-factor`: a signed-in user manages their own second factors. `GET` shows the page (JSON with
 * `Accept: application/json`); `POST` (CSRF-checked by its route row) does one `op`: `start-totp`,
 * `confirm-totp`, `recovery-codes` or `remove`. The user is the session's, never the request's, so an
 * id of someone else's factor is as unknown as a made-up one. Once the user has an active factor,
 * changing anything but a pending enrollment needs a second factor proved in the last five minutes
 * (`recentSecondFactor`), so a stolen session cookie alone cannot swap or strip the factor. Secrets and
 * codes go out in the answer's body only, once; nothing typed is logged or put in a URL.
 */
import type { TwoFactorAdapter } from "../adapters/extensions.js";
import type { Runtime } from "../config/runtime.js";
import { resolveCsrf } from "../csrf.js";
import { SecondFactorRequired } from "../errors.js";
import { signInPageUrl } from "../flows/pages.js";
import { renderTwoFactorPage, type TwoFactorPageParams } from "../pages/two-factor.js";
import { type RequestContext, wantsJson } from "../request-context.js";
import type { ResponsePlan } from "../response.js";
import { canListSessions, currentSession, revokeAllSessions } from "../session/registry.js";
import type { EventCallbacks } from "../types.js";
import {
  confirmTotpEnrollment,
  hasSecondFactor,
  listSecondFactors,
  regenerateRecoveryCodes,
  removeSecondFactor,
  startTotpEnrollment,
  type TwoFactorContext,
} from "./enrollment.js";
import { qrCodeSvg } from "./qr.js";
import { recentSecondFactor } from "./recent.js";
import { signedIn, type SignedIn } from "./session-proof.js";
import type { SecondFactorType } from "./types.js";

/** How recently (seconds) a second factor must have been proved for a change, once one is enrolled. */
export const STEP_UP_MAX_AGE = 300;

/** The JSON `error` values of this route, with their status. */
type Refusal = "SessionRequired" | "SecondFactorRequired" | "InvalidCode" | "NotFound" | "InvalidRequest" | "UserNotStored";
const STATUS: Record<Refusal, number> = { SessionRequired: 401, SecondFactorRequired: 403, InvalidCode: 400, NotFound: 404, InvalidRequest: 400, UserNotStored: 409 };
const WORDS: Record<Refusal, string> = {
  SessionRequired: "Sign in to manage your second factors.",
  SecondFactorRequired: "Changing your second factors needs your second factor, proved in the last five minutes.",
  InvalidCode: "That code did not work. Check the time on your device and enter the code your app shows now.",
  NotFound: "You have no such second factor.",
  InvalidRequest: "That request cannot be done here.",
  UserNotStored: "Second factors are kept for accounts this site stores, and yours is kept elsewhere: an authenticator app cannot be added here.",
};

function services(rt: Runtime, ctx: RequestContext): TwoFactorContext | null {
  const options = rt.config.twoFactor;
  if (!options || !rt.adapter) return null;
  const issuer = options.issuer ?? rt.theme.brandName?.replace(/:/g, "").trim() ?? new URL(ctx.origin).hostname;
  return {
    adapter: rt.adapter as unknown as TwoFactorAdapter,
    secret: rt.secrets,
    issuer: issuer || new URL(ctx.origin).hostname,
    ...(options.recoveryCodes ? { recoveryCodes: options.recoveryCodes } : {}),
  };
}

const pagePath = (ctx: RequestContext): string => `${ctx.baseUrl}/two-factor`;

function signInAgainUrl(rt: Runtime, ctx: RequestContext): string {
  return signInPageUrl(rt, ctx, new URLSearchParams({ callbackUrl: pagePath(ctx) }));
}

/**
 * A change to the user's factors ends their other sessions (`twoFactor.endOtherSessions`, default
 * on): whoever holds one of them did not prove the new state. The session making the change stays;
 * one that has no id to keep (issued before sessions had ids) ends nothing, rather than itself. A
 * store that fails is logged: the change stands.
 */
async function endOtherSessions(rt: Runtime, ctx: RequestContext): Promise<void> {
  if (rt.twoFactor?.endOtherSessions === false || !canListSessions(rt)) return;
  try {
    const current = await currentSession(rt, ctx);
    if (!current?.id) return;
    await revokeAllSessions(rt, current.userId, { except: current });
  } catch (error) {
    rt.logger.error("StoreUnavailable", "The other sessions could not be ended after a change to the second factors; the change stands.", error);
  }
}

/** An event handler that throws is logged; the change it reports stands. */
async function fire(rt: Runtime, name: "twoFactorEnrolled" | "twoFactorRemoved", message: Parameters<NonNullable<EventCallbacks["twoFactorEnrolled"]>>[0]): Promise<void> {
  try {
    await rt.events[name]?.(message);
  } catch (error) {
    rt.logger.error("EventError", `The "${name}" event handler threw; the change stands.`, error);
  }
}

interface Answer {
  status?: number;
  /** The JSON answer. */
  json: unknown;
  /** What the page shows beyond the list of factors. */
  page?: Partial<Omit<TwoFactorPageParams, "theme" | "csrfToken" | "actionUrl" | "factors">>;
}

/** The answer as JSON or as the page (with the user's factors as they are now). */
async function respond(rt: Runtime, ctx: RequestContext, who: SignedIn, tf: TwoFactorContext, answer: Answer): Promise<ResponsePlan> {
  if (wantsJson(ctx)) return { status: answer.status ?? 200, json: answer.json };
  const factors = await listSecondFactors(tf, who.userId);
  const csrf = await resolveCsrf(ctx.jar, ctx.cookies.csrfToken, rt.secrets);
  const stale = factors.some((f) => f.type === "totp") && !recentSecondFactor(who.proved, STEP_UP_MAX_AGE);
  const page = renderTwoFactorPage({
    theme: rt.theme,
    csrfToken: csrf.token,
    actionUrl: pagePath(ctx),
    factors,
    ...(stale ? { signInAgainUrl: signInAgainUrl(rt, ctx) } : {}),
    ...answer.page,
    ...(answer.status ? { status: answer.status } : {}),
  });
  return { status: page.status, html: page.html, ...(csrf.cookie ? { cookies: [csrf.cookie] } : {}) };
}

function refusal(rt: Runtime, ctx: RequestContext, who: SignedIn, tf: TwoFactorContext, reason: Refusal, page?: Answer["page"]): Promise<ResponsePlan> {
  if (reason === "SecondFactorRequired") rt.logger.debug("SecondFactorRequired", new SecondFactorRequired(WORDS[reason]).message);
  return respond(rt, ctx, who, tf, { status: STATUS[reason], json: { error: reason, message: WORDS[reason] }, page: { error: WORDS[reason], ...page } });
}

/** Answers for requests that cannot go further: the feature is off, or nobody is signed in. */
function unavailable(rt: Runtime, ctx: RequestContext, tf: TwoFactorContext | null): ResponsePlan {
  if (!tf) return { status: 404, json: { error: "NotFound", message: "Second factors are not enabled here (the `twoFactor` option)." } };
  if (wantsJson(ctx)) return { status: 401, json: { error: "SessionRequired", message: WORDS.SessionRequired } };
  return { redirect: signInPageUrl(rt, ctx, new URLSearchParams({ callbackUrl: pagePath(ctx) })) };
}

const text = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value.trim() : undefined);

/** GET /two-factor: the user's factors. */
export async function showTwoFactor(rt: Runtime, ctx: RequestContext): Promise<ResponsePlan> {
  const tf = services(rt, ctx);
  const who = tf && (await signedIn(rt, ctx));
  if (!tf || !who) return unavailable(rt, ctx, tf);
  const factors = await listSecondFactors(tf, who.userId);
  const enrolled = factors.some((f) => f.type === "totp");
  return respond(rt, ctx, who, tf, {
    json: { factors, stepUpRequired: enrolled && !recentSecondFactor(who.proved, STEP_UP_MAX_AGE) },
  });
}

/** POST /two-factor: one change, named by `op`. */
export async function changeTwoFactor(rt: Runtime, ctx: RequestContext): Promise<ResponsePlan> {
  const tf = services(rt, ctx);
  const who = tf && (await signedIn(rt, ctx));
  if (!tf || !who) return unavailable(rt, ctx, tf);
  const { userId } = who;
  const enrolled = await hasSecondFactor(tf, userId);
  const stepUpMissing = enrolled && !recentSecondFactor(who.proved, STEP_UP_MAX_AGE);

  switch (ctx.body.op) {
    case "start-totp": {
      if (stepUpMissing) return refusal(rt, ctx, who, tf, "SecondFactorRequired");
      // Factors belong to a stored user: one `authorize` keeps elsewhere would fail deep in the store.
      if (typeof rt.adapter?.getUser === "function" && !(await rt.adapter.getUser(userId))) {
        rt.logger.warn("UserNotStored", "A signed-in user the adapter does not store asked to add a second factor; refused (409). Store the user with the adapter to let them enroll.");
        return refusal(rt, ctx, who, tf, "UserNotStored");
      }
      const label = text(ctx.body.label)?.slice(0, 64);
      const started = await startTotpEnrollment(tf, { userId, accountName: who.accountName, ...(label ? { label } : {}) });
      const qrSvg = qrCodeSvg(started.uri, { label: "QR code to scan with your authenticator app" });
      return respond(rt, ctx, who, tf, { json: { ...started, qrCode: qrSvg }, page: { enrollment: { ...started, qrSvg } } });
    }
    case "confirm-totp": {
      const factorId = text(ctx.body.factorId);
      const code = text(ctx.body.code);
      if (!factorId) return refusal(rt, ctx, who, tf, "InvalidRequest");
      if (!code || !(await confirmTotpEnrollment(tf, { userId, factorId, code }))) {
        return refusal(rt, ctx, who, tf, "InvalidCode", { confirming: { factorId } });
      }
      await endOtherSessions(rt, ctx);
      await fire(rt, "twoFactorEnrolled", { userId, type: "totp", factorId });
      // The first app brings the first set of codes; a further app keeps the set the user saved.
      const recoveryCodes = (await tf.adapter.countRecoveryCodes(userId)) === 0 ? await regenerateRecoveryCodes(tf, userId) : undefined;
      if (recoveryCodes) await fire(rt, "twoFactorEnrolled", { userId, type: "recovery", factorId: "recovery" });
      return respond(rt, ctx, who, tf, {
        json: { factorId, active: true, ...(recoveryCodes ? { recoveryCodes } : {}) },
        page: { notice: "Your authenticator app is on: signing in now asks for its code.", ...(recoveryCodes ? { recoveryCodes } : {}) },
      });
    }
    case "recovery-codes": {
      // Codes stand in for a factor; without one they would be a second factor nobody enrolled.
      if (!enrolled) return refusal(rt, ctx, who, tf, "NotFound");
      if (stepUpMissing) return refusal(rt, ctx, who, tf, "SecondFactorRequired");
      const recoveryCodes = await regenerateRecoveryCodes(tf, userId);
      await fire(rt, "twoFactorEnrolled", { userId, type: "recovery", factorId: "recovery" });
      return respond(rt, ctx, who, tf, { json: { recoveryCodes }, page: { notice: "New recovery codes: the old ones no longer work.", recoveryCodes } });
    }
    case "remove": {
      if (stepUpMissing) return refusal(rt, ctx, who, tf, "SecondFactorRequired");
      const factorId = text(ctx.body.factorId);
      const type: SecondFactorType | undefined =
        factorId === "recovery" ? "recovery" : (await tf.adapter.getTwoFactors(userId)).find((f) => f.id === factorId)?.type;
      if (!factorId || !type || !(await removeSecondFactor(tf, { userId, factorId }))) return refusal(rt, ctx, who, tf, "NotFound");
      await endOtherSessions(rt, ctx);
      await fire(rt, "twoFactorRemoved", { userId, type, factorId });
      return respond(rt, ctx, who, tf, { json: { removed: factorId }, page: { notice: type === "recovery" ? "Your recovery codes were removed." : "The authenticator app was removed." } });
    }
    default:
      return refusal(rt, ctx, who, tf, "InvalidRequest");
  }
}
