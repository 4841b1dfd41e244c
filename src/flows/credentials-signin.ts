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
import type { RouteAnswer } from "../response.js";
import { signInAnswer } from "./outcome.js";
import { flowRoute } from "./flow-route.js";
import { isShowableValue, pageHintCookie, redisplayedField } from "./page-hint.js";
import { bindSignInCompletion, twoFactorStep } from "./signin-completion.js";
import type { CredentialsConfig, SetCookie } from "../types.js";
import { finishBeforeAnswering, requestOf, runFlow } from "./run.js";
import { checkCredentials, clearCredentials, type CredentialsAttempt } from "../rate-limit/limiter.js";
import { countedAttempt } from "../rate-limit/attempt.js";
import { mintDeviceCookie, verifiedDevice } from "../rate-limit/device.js";

type AttemptFields = { providerId: string; credentials: Record<string, unknown> };

type ReadAttempt = CredentialsAttempt & { malformed: boolean };

/**
 * One reading of an attempt per request: the check, the authorize step, the clear and the device
 * cookie agree on it. Keyed by the request's context, so it lives exactly as long as the request.
 */
const attempts = new WeakMap<RequestContext, Promise<ReadAttempt>>();

function attemptOf(rt: Runtime, ctx: RequestContext, input: AttemptFields): Promise<ReadAttempt> {
  let attempt = attempts.get(ctx);
  if (!attempt) attempts.set(ctx, (attempt = readAttempt(rt, ctx, input)));
  return attempt;
}

export function bindCredentialsSignIn(rt: Runtime) {
  const providerOf = (id: string) => rt.providerById.get(id) as CredentialsConfig;
  return credentialsSignInMachine.provide({
    actors: {
      checkAttempt: fromEffect(async ({ input, system }) => {
        const ctx = requestOf(system);
        return checkCredentials(rt.rateLimit, ctx.request, input.providerId, await attemptOf(rt, ctx, input));
      }),
      authorize: fromEffect(async ({ input, system }) => {
        const ctx = requestOf(system);
        // Only single strings reach `authorize`, and only with the identifier the limiter counted.
        if ((await attemptOf(rt, ctx, input)).malformed) return null;
        const user = (await providerOf(input.providerId).authorize(input.credentials, ctx.request)) ?? null;
        if (user) await requireStoredUser(rt, user.id);
        return user;
      }),
      completeSignIn: bindSignInCompletion(rt),
    },
    actions: {
      // Runs beside the completion; the answer waits for it. A store that fails is logged (clearCredentials).
      clearFailures: ({ context, self }) => {
        if (!rt.rateLimit) return;
        const ctx = requestOf(self.system);
        const cleared = attemptOf(rt, ctx, context).then((attempt) =>
          clearCredentials(rt.rateLimit, ctx.request, { ...attempt, providerId: context.providerId }, rt.logger),
        );
        finishBeforeAnswering(rt, self, cleared);
      },
    },
  });
}

/** The attempt as counted, with the device a valid device cookie names. */
async function readAttempt(rt: Runtime, ctx: RequestContext, input: AttemptFields): Promise<ReadAttempt> {
  const provider = rt.providerById.get(input.providerId) as CredentialsConfig;
  const counted = countedAttempt(provider, input.credentials, (name) => (ctx.form?.getAll(name).length ?? 0) > 1);
  const limiter = rt.rateLimit;
  if (counted.identifier === undefined || !limiter?.limits.credentials) return counted;
  const binding = { namespace: await limiter.namespace(), providerId: input.providerId, identifier: counted.identifier };
  const device = await verifiedDevice(limiter.devices, binding, ctx.jar.get(ctx.cookies.device.name));
  return { identifier: counted.identifier, device, malformed: false };
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
  provider: CredentialsConfig,
): Promise<RouteAnswer> {
  const providerId = provider.id;
  const credentials: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(ctx.body)) if (!RESERVED_FIELDS.has(key)) credentials[key] = value;
  const input = {
    providerId,
    credentials,
    callbackUrl: requestedCallbackUrl(ctx),
    hasAdapter: rt.adapter !== undefined,
    request: requestFacts(ctx),
    ...twoFactorStep(rt, ["pwd"]),
  };
  const output = await runFlow(rt, machine, input, ctx);
  if (output.outcome === "signedIn") await rememberDevice(rt, ctx, { providerId, credentials }, output.cookies);
  const answer = signInAnswer(ctx, output);
  if ("plan" in answer) return answer.plan;
  if (!(answer.error instanceof CredentialsSignin)) return answer;
  const field = redisplayedField(provider);
  const value = field === undefined ? undefined : credentials[field];
  if (field === undefined || !isShowableValue(value)) return answer;
  const hint = await pageHintCookie(rt, ctx, { page: "signin", provider: providerId, field, value });
  return { error: answer.error, cookies: [...answer.cookies, ...hint] };
}

/**
 * A browser that signed in keeps a budget of its own for that identifier from now on: a device
 * cookie, minted unless it holds a valid one for the identifier already (the attempt's reading found it).
 */
async function rememberDevice(rt: Runtime, ctx: RequestContext, input: AttemptFields, cookies: SetCookie[]): Promise<void> {
  const limiter = rt.rateLimit;
  if (!limiter?.limits.credentials) return;
  const attempt = await attemptOf(rt, ctx, input);
  if (attempt.identifier === undefined || attempt.device !== undefined) return;
  const binding = { namespace: await limiter.namespace(), providerId: input.providerId, identifier: attempt.identifier };
  cookies.push(await mintDeviceCookie(limiter.devices, binding, ctx.cookies.device));
}

/** The route this flow serves: the posted form. */
export const routes = { callback: flowRoute(bindCredentialsSignIn, handleCredentialsCallback) };
