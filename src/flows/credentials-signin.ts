/**
 * POST /callback/:provider for a credentials provider: the form's fields go to `authorize`, and
 * the credentials sign-in machine takes it from there.
 */
import { fromEffect } from "./effect.js";
import { credentialsSignInMachine } from "../../machines/credentials-signin.machine.js";
import type { Runtime } from "../config/runtime.js";
import { CredentialsSignin, InvalidConfiguration, troubleshootingUrl } from "../errors.js";
import { requestedCallbackUrl } from "../redirect.js";
import { requestFacts, type RequestContext } from "../request-context.js";
import type { RouteAnswer } from "../routes.js";
import { signInAnswer } from "./outcome.js";
import { isShowableValue, pageHintCookie, redisplayedField } from "./page-hint.js";
import { bindSignInCompletion } from "./signin-completion.js";
import type { CredentialsConfig } from "../types.js";
import { finishBeforeAnswering, requestOf, runFlow } from "./run.js";
import { checkCredentials, clearCredentials, normalizeIdentifier } from "../rate-limit/limiter.js";

/** Fields that name an account, tried in order when the provider declares none. */
const IDENTIFIER_FIELDS = ["email", "username", "login", "identifier", "user", "phone"];

/**
 * The account identifier of an attempt, as the limiter counts it: the first field the provider
 * declares that is not a password (e.g. `email`, `username`), else the first of the usual names
 * that was sent, normalised. None: the attempts are counted per client address alone.
 */
export function attemptIdentifier(provider: CredentialsConfig, credentials: Record<string, unknown>): string | undefined {
  const declared = Object.entries(provider.credentials ?? {});
  const names = declared.length ? declared.filter(([, input]) => input?.type !== "password").map(([name]) => name) : IDENTIFIER_FIELDS;
  for (const name of names) {
    const value = credentials[name];
    if (typeof value === "string" && value.trim() !== "") return normalizeIdentifier(value);
  }
  return undefined;
}

export function bindCredentialsSignIn(rt: Runtime) {
  const identifierOf = (input: { providerId: string; credentials: Record<string, unknown> }) =>
    attemptIdentifier(rt.providerById.get(input.providerId) as CredentialsConfig, input.credentials);
  return credentialsSignInMachine.provide({
    actors: {
      checkAttempt: fromEffect(({ input, system }) =>
        checkCredentials(rt.rateLimit, requestOf(system).request, input.providerId, identifierOf(input)),
      ),
      authorize: fromEffect(async ({ input, system }) => {
        const provider = rt.providerById.get(input.providerId) as CredentialsConfig;
        const user = (await provider.authorize(input.credentials, requestOf(system).request)) ?? null;
        if (user) await requireStoredUser(rt, user.id);
        return user;
      }),
      completeSignIn: bindSignInCompletion(rt),
    },
    actions: {
      // Runs beside the completion; the answer waits for it. A store that fails is logged (clearCredentials).
      clearFailures: ({ context, self }) => {
        if (!rt.rateLimit) return;
        const { request } = requestOf(self.system);
        finishBeforeAnswering(rt, self, clearCredentials(rt.rateLimit, request, context.providerId, identifierOf(context), rt.logger));
      },
    },
  });
}

export type BoundCredentialsSignIn = ReturnType<typeof bindCredentialsSignIn>;

/**
 * A database session points at a stored user: a user `authorize` made up would fail deep in the
 * store (a foreign-key error) after the password was accepted. Said here, with the fix, instead.
 */
async function requireStoredUser(rt: Runtime, id: unknown): Promise<void> {
  if (rt.session.strategy !== "database" || typeof rt.adapter?.getUser !== "function" || typeof id !== "string") return;
  if (await rt.adapter.getUser(id)) return;
  throw new InvalidConfiguration(
    `authorize() returned a user (id "${id}") that the adapter has no record of, and database sessions belong to a stored user. Return a user from your adapter's store (create it with adapter.createUser first), or use session: { strategy: "jwt" } for credentials sign-ins. See ${troubleshootingUrl("CredentialsUserNotStored")}`,
  );
}


const RESERVED_FIELDS = new Set(["csrfToken", "callbackUrl"]);

/**
 * The answer to a credentials POST. A refusal goes back to the sign-in page with `error` and `code`
 * only: nothing typed into the form travels in its URL. The built-in page may show the one account
 * field again (`redisplayedField`), carried in the page-hint cookie.
 */
export async function handleCredentialsCallback(
  rt: Runtime,
  machine: BoundCredentialsSignIn,
  ctx: RequestContext,
  providerId: string,
): Promise<RouteAnswer> {
  const credentials: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(ctx.body)) if (!RESERVED_FIELDS.has(key)) credentials[key] = value;
  const input = {
    providerId,
    credentials,
    callbackUrl: requestedCallbackUrl(ctx),
    hasAdapter: rt.adapter !== undefined,
    request: requestFacts(ctx),
  };
  const output = await runFlow(rt, machine, input, ctx);
  const answer = signInAnswer(ctx, output);
  if ("plan" in answer) return answer.plan;
  if (!(answer.error instanceof CredentialsSignin)) return answer;
  const field = redisplayedField(rt.providerById.get(providerId) as CredentialsConfig);
  const value = field === undefined ? undefined : credentials[field];
  if (field === undefined || !isShowableValue(value)) return answer;
  const hint = await pageHintCookie(rt, ctx, { page: "signin", provider: providerId, field, value });
  return { error: answer.error, cookies: [...answer.cookies, ...hint] };
}
