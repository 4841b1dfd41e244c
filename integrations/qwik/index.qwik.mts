/**
 * `appauth/qwik` — integration B: appauth in a Qwik City application.
 *
 * ```ts
 * // src/routes/plugin@auth.ts
 * import { ResumableAuth$ } from "appauth/qwik";
 * export const { onRequest, useSession, useSignIn, useSignOut, useUpdateSession } =
 *   ResumableAuth$((event) => ({ providers: [...] }));
 * ```
 *
 * This file is what Qwik's optimizer sees (the package's `qwik` field names it, and the `.qwik.mjs`
 * name lets the optimizer split it): the loaders and actions are `$` segments, and everything they
 * do on the server is in `server.ts`, loaded only when a request needs it.
 */
import { implicit$FirstArg, type QRL } from "@builder.io/qwik";
import {
  globalAction$,
  routeLoader$,
  zod$,
  type Action,
  type Loader,
  type RequestEvent,
  type RequestEventAction,
  type RequestHandler,
} from "@builder.io/qwik-city";
import type { Session } from "../../src/types.js";
import type { ResumableAuthConfig } from "./env.js";
import { signInFailure } from "./failure.js";
import type { AuthRequestEvent, GetSessionResult, Navigation } from "./server.js";
import type { SessionInfo } from "../../src/server/sessions.js";

export type { GetSessionResult, SignInInput } from "./server.js";
export type { SessionInfo } from "../../src/server/sessions.js";
export type { ResumableAuthConfig } from "./env.js";
export type { Session, User, JWT, DefaultSession, Account, Profile } from "../../src/types.js";
export { AuthError, CredentialsSignin } from "../../src/errors.js";

/** The server half, loaded on the first request that needs it (never by the browser). */
const server = () => import("./server.js");

/** The app's configuration function as `ResumableAuth$` receives it, once the optimizer made it a QRL. */
export type ResumableAuthConfigQrl = QRL<(event: RequestEvent) => ResumableAuthConfig | Promise<ResumableAuthConfig>>;

/**
 * An action's failure, as the spec shapes it; `error` and `code` name the library's error
 * (`CredentialsSignin`, `credentials`); a refused attempt (`RateLimited`) has `retryAfter`, seconds.
 */
export interface ActionFailure<Field extends string> {
  /** Always `true`: the action failed. */
  failed: true;
  /** Messages by form field, for the fields that were refused. */
  fieldErrors: Partial<Record<Field, string[]>>;
  /** Messages about the form as a whole. */
  formErrors: string[];
  /** The library's error type (`CredentialsSignin`, `RateLimited`). */
  error?: string;
  /** The error's code, when it has one (`credentials`). */
  code?: string;
  /** Seconds until a refused attempt may be tried again (`RateLimited`). */
  retryAfter?: number;
}

/** An action that went through: `failed`, `fieldErrors` and `formErrors` are all absent. */
export interface ActionSuccess {
  /** Absent: the action went through. */
  failed?: undefined;
  /** Absent: no field was refused. */
  fieldErrors?: undefined;
  /** Absent: the form was accepted. */
  formErrors?: undefined;
}

/** What `useSignIn` submits: the spec's fields, plus the provider's own (credentials, email address). */
export interface SignInFields {
  /** The provider to sign in with (`github`, `credentials`, `email`). */
  providerId?: string;
  /** Where to land after signing in; default: the current page. */
  redirectTo?: string;
  /** Options of the sign-in, as `signIn`'s second argument (`redirectTo`, the provider's fields). */
  options?: { redirectTo?: string; [field: string]: unknown };
  /** Extra parameters for the provider's authorization request (`prompt`, `login_hint`). */
  authorizationParams?: string | Record<string, string>;
  [field: string]: unknown;
}

export interface ResumableAuthResult {
  /** Export it from `src/routes/plugin@auth.ts`: it answers every route under `basePath`. */
  onRequest: RequestHandler;
  /** The session, or `null`: `const session = useSession(); session.value?.user`. */
  useSession: Loader<Session | null>;
  /** Signs in: an action to submit with `SignInFields` (a `<Form>` or `action.submit`). */
  useSignIn: Action<ActionSuccess | ActionFailure<"providerId" | "redirectTo" | "options" | "authorizationParams">, SignInFields, true>;
  /** Signs out: an action to submit, optionally with `redirectTo`. */
  useSignOut: Action<ActionSuccess | ActionFailure<"redirectTo">, { redirectTo?: string }, true>;
  /** Resolves with `{ session }`, the updated session. */
  useUpdateSession: Action<(ActionSuccess & { session: Session }) | (ActionFailure<string> & { session?: undefined }), Record<string, string | number | boolean | null>, true>;
}

/**
 * Sends the browser on from an action: a page of the app by a 303 that Qwik follows in place; a
 * document (another origin, or one of the library's pages) by a 303 too when the form was posted
 * without JavaScript, and otherwise as the redirect of Qwik's data answer (Qwik City turns a thrown
 * redirect to another origin into an empty answer), which its client loads as a page.
 */
function navigate(event: RequestEventAction, to: Navigation, dataRequest: boolean): void {
  if (to.kind === "page") throw event.redirect(303, to.path);
  if (!dataRequest) throw event.redirect(303, to.url);
  event.headers.set("location", to.url);
}

/** A failure as the spec shapes it: `failed: true`, `formErrors`, `fieldErrors`, plus the error's type, code and wait. */
function failure(event: RequestEventAction, error: unknown) {
  const failed = signInFailure(error);
  if (!failed) throw error;
  return event.fail(failed.status, failed.value);
}

/**
 * Sets up appauth for a Qwik City application (`ResumableAuth$` is this with its argument made a
 * QRL by the optimizer). Export what it returns from `src/routes/plugin@auth.ts`.
 */
export function ResumableAuthQrl(configQrl: ResumableAuthConfigQrl): ResumableAuthResult {
  const source = async (event: AuthRequestEvent) => configQrl(event as RequestEvent);

  /** Answers every route under `basePath` (default `/auth`) with the core; other requests only register the config. */
  const onRequest: RequestHandler = async (event) => {
    const { registerConfig, handleAuthRoute } = await server();
    registerConfig(event, source);
    const response = await handleAuthRoute(event, source);
    if (response) throw event.send(response);
  };

  /** The session (or `null`), read on first use in this request and shared by every loader and guard. */
  const useSession = routeLoader$(async (event) => {
    const { registerConfig, sessionOf } = await server();
    registerConfig(event, source);
    const read = await sessionOf(event);
    if (read.unavailable) {
      // The store is down: an error page that says so (503, not cached), never a signed-out page.
      event.headers.set("Retry-After", "5");
      event.headers.set("Cache-Control", "no-store");
      throw event.error(503, "The session store cannot be reached right now: try again shortly (StoreUnavailable).");
    }
    return read.data;
  });

  /**
   * Signs in. Fields: `providerId`, `redirectTo` (default: this page), `options` (`redirectTo` and
   * any other field), `authorizationParams`; any other field (`username`, `password`, `email`) is
   * posted to the provider. Credentials sign in and go on; OAuth/OIDC go to the provider; email goes
   * to the check-your-email page; passkeys (and no provider) go to the sign-in page.
   */
  const useSignIn = globalAction$(
    async (data, event) => {
      const { registerConfig, signIn, isDataRequest } = await server();
      registerConfig(event, source);
      let to: Navigation;
      try {
        to = await signIn(event, data);
      } catch (error) {
        return failure(event, error);
      }
      navigate(event, to, isDataRequest(event));
      return {};
    },
    zod$((z) =>
      z
        .object({
          providerId: z.string().min(1).optional(),
          redirectTo: z.string().optional(),
          options: z.object({ redirectTo: z.string().optional() }).passthrough().optional(),
          authorizationParams: z.union([z.string(), z.record(z.string())]).optional(),
        })
        .passthrough(),
    ),
  );

  /** Signs out (ending a database session too) and goes to `redirectTo` (default: this page). */
  const useSignOut = globalAction$(
    async (data, event) => {
      const { registerConfig, signOut, isDataRequest } = await server();
      registerConfig(event, source);
      navigate(event, await signOut(event, data), isDataRequest(event));
      return {};
    },
    zod$((z) => ({ redirectTo: z.string().optional() })),
  );

  /**
   * Updates the session, as the client's `update()` does elsewhere: every field is handed to the
   * jwt callback as `session` (trigger `"update"`) — validate there — and the session callback as
   * `newSession`. Resolves with the new session; the page's `useSession` sees it at once.
   */
  const useUpdateSession = globalAction$(
    async (data, event) => {
      const { registerConfig, updateSession } = await server();
      registerConfig(event, source);
      const session = await updateSession(event, data);
      if (!session) return event.fail(401, { formErrors: ["Not signed in."], fieldErrors: {} as Record<string, string[] | undefined> });
      return { session };
    },
    zod$((z) => z.record(z.union([z.string(), z.number(), z.boolean(), z.null()]))),
  );

  // Qwik's inferred types name its own copy of zod; these are the same shapes, spelled out.
  return { onRequest, useSession, useSignIn, useSignOut, useUpdateSession } as unknown as ResumableAuthResult;
}

/**
 * Sets up appauth for a Qwik City application:
 * `export const { onRequest, useSession, useSignIn, useSignOut, useUpdateSession } = ResumableAuth$((event) => config)`.
 * The function gets the request event (`event.env` for secrets on edge adapters) and should return
 * the same object each time where it can (validation and the flows are prepared once per object).
 */
export const ResumableAuth$: (config: (event: RequestEvent) => ResumableAuthConfig | Promise<ResumableAuthConfig>) => ResumableAuthResult =
  implicit$FirstArg(ResumableAuthQrl);

/**
 * The session for a guard or any request handler, read once per request: `{ data, cookie }`, the
 * cookies it re-issued already written. Needs the plugin's `onRequest` to have run (plugins run
 * before layouts and pages).
 */
export async function getSession(event: RequestEvent | RequestEventAction): Promise<GetSessionResult> {
  return (await server()).sessionOf(event);
}

/**
 * Guards a layout or page: signed-in visitors go on (their session is returned), others are sent to
 * the sign-in page with `callbackUrl` set to the full URL they asked for, and come back there.
 * The library's own pages are never guarded (there the session, maybe `null`, is returned).
 *
 * ```ts
 * // src/routes/protected/layout.tsx
 * export const onRequest: RequestHandler = (event) => requireSession(event);
 * ```
 */
export async function requireSession(event: RequestEvent): Promise<Session | null> {
  const { signInRequired } = await server();
  const { session, signIn } = await signInRequired(event);
  if (!signIn) return session;
  return leaveFor(event, signIn);
}

/** Throws Qwik's redirect to `to`, from a guard. */
async function leaveFor(event: RequestEvent, to: Navigation): Promise<never> {
  if (to.kind === "page") throw event.redirect(303, to.path);
  // Qwik's client fetching this page's data follows the redirect and loads the library's page as a
  // document; a redirect thrown here would be rewritten into a data request for that page.
  if ((await server()).isDataRequest(event)) throw event.send(new Response(null, { status: 303, headers: { location: to.url } }));
  throw event.redirect(303, to.url);
}

/**
 * Step-up for a sensitive page or action: goes on when the session proved a second factor in the
 * last `maxAge` seconds; otherwise sends the person through the step-up page (signed out: through
 * sign-in) and back to `redirectTo` (default: the page asked for). Needs `twoFactor` in the config.
 *
 * ```ts
 * // src/routes/account/delete/layout.tsx
 * export const onRequest: RequestHandler = (event) => requireRecentSecondFactor(event, 300);
 * ```
 */
export async function requireRecentSecondFactor(event: RequestEvent, maxAge: number, options: { redirectTo?: string } = {}): Promise<void> {
  const to = await (await server()).stepUpRequired(event, { maxAge, ...options });
  if (to) await leaveFor(event, to);
}

/** The signed-in person's sessions ("Your devices"), theirs marked `current`; `null` when signed out. */
export async function listSessions(event: RequestEvent | RequestEventAction): Promise<SessionInfo[] | null> {
  return (await server()).listSessions(event);
}

/** Ends one of the signed-in person's sessions; `false` when they have none with this id (another person's included). */
export async function revokeSession(event: RequestEvent | RequestEventAction, sessionId: string): Promise<boolean> {
  if (typeof sessionId !== "string" || sessionId === "") throw new TypeError("revokeSession: sessionId must be a non-empty string");
  return (await (await server()).revokeSessions(event, { sessionId })) !== null;
}

/** Ends every session of the signed-in person but this one; how many ended. */
export async function revokeOtherSessions(event: RequestEvent | RequestEventAction): Promise<number> {
  return (await (await server()).revokeSessions(event, { revoke: "others" })) ?? 0;
}

/**
 * With `userId`: the application ends every session of that user (after a password change, a ban).
 * Without: the signed-in person ends all of theirs, this one too. How many ended.
 */
export async function revokeAllSessions(event: RequestEvent | RequestEventAction, userId?: string): Promise<number> {
  if (userId !== undefined) return (await server()).revokeAllSessionsOf(event, userId);
  return (await (await server()).revokeSessions(event, { revoke: "all" })) ?? 0;
}

export { setEnvDefaults } from "./env.js";
