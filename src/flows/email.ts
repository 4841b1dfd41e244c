/**
 * POST /signin/:provider and GET /callback/:provider for email providers: the effects of the
 * email machine. The link's token is random, stored only as a keyed hash, expires after the
 * provider's `maxAge`, works once, and only together with the address it was sent to, at the
 * callback of the provider that sent it.
 */
import { fromEffect } from "./effect.js";
import { emailMachine, type EmailContext } from "../../machines/email.machine.js";
import type { Runtime } from "../config/runtime.js";
import { normalizeEmail } from "../email/identifier.js";
import { hashLinkToken, randomToken } from "../email/token.js";
import { EmailSignInError, type AuthError } from "../errors.js";
import { requestedCallbackUrl, resolveRedirectUrl } from "../redirect.js";
import { requestFacts, type RequestContext } from "../request-context.js";
import type { ResponsePlan } from "../response.js";
import { requireAdapter } from "../session/database-session.js";
import type { EmailConfig } from "../types.js";
import type { RouteAnswer } from "../response.js";
import { planOrError, signInAnswer } from "./outcome.js";
import { flowRoute } from "./flow-route.js";
import { pageHintCookie } from "./page-hint.js";
import { requestOf, runMachine } from "./run.js";
import { checkEmail, forgetMail } from "../rate-limit/limiter.js";
import { bindSignInCompletion, twoFactorStep } from "./signin-completion.js";

/** Characters no single address may hold, whatever a custom normaliser returns. */
const UNSAFE_CHARACTERS = /[\s,;<>"()\\[\]]/;

function unsafe(address: string): boolean {
  // Control characters, checked by code point (a regex range of them trips the linter for good reason).
  for (let i = 0; i < address.length; i++) {
    const code = address.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return UNSAFE_CHARACTERS.test(address);
}

function emailProvider(rt: Runtime, id: string): EmailConfig {
  return rt.providerById.get(id) as EmailConfig;
}

/** The provider's normaliser (or the default), and a last check that one plain address came out. */
export function normalizeFor(provider: EmailConfig, raw: string): string {
  if (!provider.normalizeIdentifier) return normalizeEmail(raw);
  let address: unknown;
  try {
    address = provider.normalizeIdentifier(raw);
  } catch (error) {
    throw new EmailSignInError("The email address was refused.", { cause: error });
  }
  if (typeof address !== "string" || address.split("@").length !== 2 || unsafe(address)) {
    throw new EmailSignInError("normalizeIdentifier did not return one plain address.");
  }
  return address;
}

export function bindEmail(rt: Runtime) {
  return emailMachine.provide({
    actors: {
      normalizeIdentifier: fromEffect(async ({ input }) => normalizeFor(emailProvider(rt, input.providerId), input.email)),

      checkSendLimit: fromEffect(({ input, system }) => checkEmail(rt.rateLimit, requestOf(system).request, input.providerId, input.identifier)),

      checkVerificationRequest: fromEffect(async ({ input }) => {
        const existing = await requireAdapter(rt).getUserByEmail!(input.identifier);
        return rt.callbacks.signIn({
          user: existing ?? { id: input.identifier, email: input.identifier },
          account: { provider: input.providerId, providerAccountId: input.identifier, type: "email" },
          email: { verificationRequest: true },
        });
      }),

      createToken: fromEffect(async ({ input }) => {
        const provider = emailProvider(rt, input.providerId);
        const token = (await provider.generateVerificationToken?.()) ?? randomToken();
        const expires = new Date(Date.now() + (provider.maxAge ?? 24 * 60 * 60) * 1000);
        await requireAdapter(rt).createVerificationToken!({
          identifier: input.identifier,
          token: await hashLinkToken(token, { providerId: provider.id, secret: rt.secrets[0]! }),
          expires,
        });
        return { token, expires: expires.toISOString() };
      }),

      sendLink: fromEffect(async ({ input, system }) => {
        const provider = emailProvider(rt, input.providerId);
        const callbackUrl = await resolveRedirectUrl(input.callbackUrl, input.request, rt.callbacks.redirect);
        const link = new URL(`${input.request.baseUrl}/callback/${encodeURIComponent(provider.id)}`);
        link.search = new URLSearchParams({ callbackUrl, token: input.token, email: input.identifier }).toString();
        await provider.sendVerificationRequest!({
          identifier: input.identifier,
          url: link.href,
          expires: new Date(input.expires),
          provider,
          token: input.token,
          theme: rt.theme,
          request: requestOf(system).request,
        });
      }),

      withdrawToken: fromEffect(async ({ input }) => {
        await requireAdapter(rt).useVerificationToken!({
          identifier: input.identifier,
          token: await hashLinkToken(input.token, { providerId: input.providerId, secret: rt.secrets[0]! }),
        });
        await forgetMail(rt.rateLimit, input.providerId, input.identifier, rt.logger);
      }),

      consumeToken: fromEffect(async ({ input }) => {
        if (!input.token || input.token.length > 512) return false;
        const adapter = requireAdapter(rt);
        // Tokens are hashed with the newest secret; older ones still open links sent before a rotation.
        // The hash names the provider whose callback this is: another provider's link finds nothing here.
        for (const secret of rt.secrets) {
          const token = await hashLinkToken(input.token, { providerId: input.providerId, secret });
          const used = await adapter.useVerificationToken!({ identifier: input.identifier, token });
          if (!used) continue;
          // The mailbox's link is spent: the next request for it gets a mail again.
          await forgetMail(rt.rateLimit, input.providerId, input.identifier, rt.logger);
          return used.expires.valueOf() > Date.now();
        }
        return false;
      }),

      completeSignIn: bindSignInCompletion(rt),
    },
  });
}

export type BoundEmail = ReturnType<typeof bindEmail>;

/** POST /signin/:provider: mail the link, then on to the verify-request page. */
export async function handleEmailSignIn(
  rt: Runtime,
  machine: BoundEmail,
  ctx: RequestContext,
  provider: EmailConfig,
): Promise<RouteAnswer> {
  const result = await runMachine(
    rt,
    machine,
    {
      providerId: provider.id,
      email: typeof ctx.body.email === "string" ? ctx.body.email : "",
      callbackUrl: requestedCallbackUrl(ctx),
      request: requestFacts(ctx),
    },
    { until: "awaitingLink", request: ctx },
  );
  if (!result.done) {
    const params = new URLSearchParams({ provider: provider.id, type: "email" });
    // The page names the address the link went to, so a typo shows before the wait for a mail; the
    // address travels in the page-hint cookie, never in the URL.
    const address = result.context.identifier;
    const hint = address ? await pageHintCookie(rt, ctx, { page: "verify-request", provider: provider.id, field: "email", value: address }) : [];
    return { redirect: `${ctx.baseUrl}/verify-request?${params}`, ...(hint.length ? { cookies: hint } : {}) };
  }
  // Ended at the first request: refused or diverted (a session is only issued when the link is followed).
  const output = result.output;
  if (output.outcome === "signedIn") return { redirect: ctx.origin };
  const answer = signInAnswer(ctx, output);
  if ("plan" in answer) return answer.plan;
  // A refused address goes back into the sign-in page's field (to fix a typo), through the page hint.
  if (answer.error instanceof EmailSignInError && typeof ctx.body.email === "string") {
    const hint = await pageHintCookie(rt, ctx, { page: "signin", provider: provider.id, field: "email", value: ctx.body.email });
    return { error: answer.error, cookies: [...answer.cookies, ...hint] };
  }
  return answer;
}

/** GET /callback/:provider: the link was followed; resume the flow where it rested. */
export async function handleEmailCallback(
  rt: Runtime,
  machine: BoundEmail,
  ctx: RequestContext,
  provider: EmailConfig,
): Promise<ResponsePlan | AuthError> {
  const context: EmailContext = {
    providerId: provider.id,
    email: "",
    callbackUrl: requestedCallbackUrl(ctx),
    request: requestFacts(ctx),
    ...twoFactorStep(rt, []),
    sessionCookies: [],
    events: [],
  };
  const event = { type: "link.followed", token: ctx.query.get("token") ?? "", email: ctx.query.get("email") ?? "", request: context.request };
  const result = await runMachine(rt, machine, undefined, { resume: { value: "awaitingLink", context, event }, request: ctx });
  if (!result.done) throw new Error("The email flow stopped before its end.");
  return planOrError(signInAnswer(ctx, result.output));
}

/** The routes this flow serves: the request for a link, and the link followed. */
export const routes = { signIn: flowRoute(bindEmail, handleEmailSignIn), callback: flowRoute(bindEmail, handleEmailCallback) };
