/**
 * `appauth/solid-start/client` — the browser side of integration C (experimental):
 * `SessionProvider` holds the session for the component tree, `useSession()` reads it, and
 * `signIn`/`signOut`/`getSession`/`getCsrfToken`/`getProviders` talk to the library's routes (the
 * same wire client as `appauth/react`, src/client). Tabs stay in step: a sign-in, sign-out or
 * update in one tab makes every tab refetch its session.
 *
 * ```tsx
 * // src/app.tsx: the session read on the server seeds the provider — no fetch when the page loads
 * const session = createAsync(() => getSessionQuery(), { deferStream: true });
 * <SessionProvider session={session()}>…</SessionProvider>
 * // a component
 * const { data, status, update } = useSession();
 * ```
 *
 * Written with `createComponent` rather than JSX, so the package ships plain JavaScript that any
 * bundler loads as is, and the app's vite-plugin-solid has nothing of ours to compile.
 */
import { createComponent, createContext, createEffect, createResource, createSignal, on, onCleanup, onMount, untrack, useContext, type Accessor, type JSX } from "solid-js";
import { isServer } from "solid-js/web";
import { announce, onSessionChange } from "../../src/client/channel.js";
import { basePathOf, refreshedSession, setClientBasePath, updateSession, type ClientOptions } from "../../src/client/fetch-client.js";
import type { Session } from "../../src/types.js";

export { getSession, getCsrfToken, getProviders, signIn, signOut } from "../../src/client/fetch-client.js";
export type { ClientOptions, ClientProvider, SignInOptions, SignInResult, SignOutOptions, AuthorizationParams } from "../../src/client/fetch-client.js";
export type { Session } from "../../src/types.js";

export type SessionStatus = "loading" | "authenticated" | "unauthenticated";

export interface SessionState {
  /** The session; `null` when signed out or not known yet (see `status`). */
  data: Accessor<Session | null>;
  /** `loading` until the session is known, then `authenticated` or `unauthenticated`. */
  status: Accessor<SessionStatus>;
  /**
   * Without an argument: refetches the session. With `data`: posts it as an update (the jwt
   * callback sees `trigger: "update"`) and resolves with the new session (`null` if it failed).
   */
  update(data?: unknown): Promise<Session | null>;
}

export interface CreateSessionOptions {
  /**
   * The session read on the server, as a value or an accessor (a `createAsync` of a `"use server"`
   * query): the page starts with it and makes no request of its own; a later value (the query
   * revalidated after an action) replaces it. `undefined`: the session is fetched in the browser.
   */
  session?: Session | null | Accessor<Session | null | undefined>;
  /** Where the library's routes are (the server's `prefix`); default `/api/auth`. */
  basePath?: string;
  /** Refetch when the tab becomes visible again; default true. */
  refetchOnWindowFocus?: boolean;
  /** Refetch every this many seconds; 0 (default) never. */
  refetchInterval?: number;
}

/**
 * The session as a reactive value, kept current. The fetch is a `createResource` whose source is
 * a counter that stays `false` while the server's session is enough, so a server-seeded page
 * makes no request; it counts up when another tab signs in, out or updates, when this tab becomes
 * visible again, on the interval, and on `update()`.
 */
export function createSession(options: CreateSessionOptions = {}): SessionState {
  const seed: Accessor<Session | null | undefined> =
    typeof options.session === "function" ? options.session : () => options.session as Session | null | undefined;
  if (isServer) {
    // On the server the session is what the server read: there is nothing to fetch or listen to.
    const status = (): SessionStatus => (seed() === undefined ? "loading" : seed()?.user ? "authenticated" : "unauthenticated");
    return { data: () => seed() ?? null, status, update: async () => seed() ?? null };
  }

  const client: ClientOptions = { basePath: basePathOf(options.basePath !== undefined ? { basePath: options.basePath } : undefined) };
  const initial = untrack(seed);
  const [data, setData] = createSignal<Session | null>(initial ?? null);
  const [known, setKnown] = createSignal(initial !== undefined);
  const [updating, setUpdating] = createSignal(false);
  const [ask, setAsk] = createSignal<number | false>(initial === undefined ? 1 : false);
  let latest: Promise<Session | null> | undefined;
  // A store outage (503) keeps the session shown: the person was not signed out.
  const [fetched] = createResource(ask, () => (latest = refreshedSession(untrack(data), client)));

  createEffect(
    on(fetched, (fresh) => {
      if (fetched.state !== "ready") return;
      setData(fresh ?? null);
      setKnown(true);
    }),
  );

  const refetch = (): Promise<Session | null> => {
    setAsk((n) => (n === false ? 1 : n + 1));
    return latest ?? Promise.resolve(untrack(data));
  };

  // A new session from the server (its query was read again after an action): take it, and tell the other tabs.
  createEffect(
    on(
      seed,
      (fromServer) => {
        if (fromServer === undefined) return;
        const before = untrack(data);
        setData(fromServer);
        setKnown(true);
        if (Boolean(before?.user) !== Boolean(fromServer?.user)) announce(fromServer?.user ? "signin" : "signout", { local: false });
      },
      { defer: true },
    ),
  );

  onMount(() => {
    onCleanup(onSessionChange(() => void refetch()));
    // A server action that signs in or out ends in a full page load, which starts this tab's state
    // afresh: what the tab's previous page knew (sessionStorage) tells whether the others must hear
    // of it. Later changes are only recorded: they came from a refetch (another tab announced them)
    // or from the server's session query (announced below).
    const stateNow = () => (data()?.user ? "signed-in" : "signed-out");
    if (known()) {
      const before = remembered();
      if (before !== null && before !== stateNow()) announce(stateNow() === "signed-in" ? "signin" : "signout", { local: false });
    }
    createEffect(() => {
      if (known()) remember(stateNow());
    });
    if (options.refetchOnWindowFocus !== false) {
      const onVisible = () => {
        if (document.visibilityState === "visible") void refetch();
      };
      document.addEventListener("visibilitychange", onVisible);
      onCleanup(() => document.removeEventListener("visibilitychange", onVisible));
    }
    const interval = options.refetchInterval ?? 0;
    if (interval > 0) {
      const timer = setInterval(() => {
        if (navigator.onLine !== false) void refetch();
      }, interval * 1000);
      onCleanup(() => clearInterval(timer));
    }
  });

  async function update(payload?: unknown): Promise<Session | null> {
    if (payload === undefined) return refetch();
    setUpdating(true);
    try {
      const fresh = await updateSession(payload, client);
      if (fresh) {
        setData(fresh);
        // The other tabs pick the change up; this one already has it.
        announce("update", { local: false });
      }
      return fresh;
    } finally {
      setUpdating(false);
    }
  }

  const status = (): SessionStatus => (!known() || updating() ? "loading" : data()?.user ? "authenticated" : "unauthenticated");
  return { data, status, update };
}

const LAST_STATE_KEY = "appauth.solid.last-state";

function remembered(): string | null {
  try {
    return window.sessionStorage.getItem(LAST_STATE_KEY);
  } catch {
    return null;
  }
}

function remember(state: string): void {
  try {
    window.sessionStorage.setItem(LAST_STATE_KEY, state);
  } catch {
    // Storage may be off: the other tabs catch up when they become visible.
  }
}

const SessionContext = createContext<SessionState>();

export interface SessionProviderProps extends Omit<CreateSessionOptions, "session"> {
  /** The session read on the server (e.g. `session()` of a `createAsync`); omit it to fetch in the browser. */
  session?: Session | null;
  /** The part of the application that reads the session. */
  children?: JSX.Element;
}

/** Provides the session to `useSession()` below it, and keeps it current (see `createSession`). */
export function SessionProvider(props: SessionProviderProps): JSX.Element {
  setClientBasePath(untrack(() => props.basePath));
  const state = createSession({
    session: () => props.session,
    ...untrack(() => ({
      ...(props.basePath !== undefined ? { basePath: props.basePath } : {}),
      ...(props.refetchOnWindowFocus !== undefined ? { refetchOnWindowFocus: props.refetchOnWindowFocus } : {}),
      ...(props.refetchInterval !== undefined ? { refetchInterval: props.refetchInterval } : {}),
    })),
  });
  return createComponent(SessionContext.Provider, {
    value: state,
    get children() {
      return props.children;
    },
  });
}

export interface UseSessionOptions {
  /** The component needs a session: without one, `onUnauthenticated` runs (default: go to sign in). */
  required?: boolean;
  /** What to do when `required` and there is no session; default: go to the sign-in page. */
  onUnauthenticated?: () => void;
}

/**
 * The session, its status and `update`, from the nearest `SessionProvider`. With `required: true`
 * an unauthenticated visitor is sent to sign in (coming back here afterwards), and the status
 * stays `loading` until then.
 */
export function useSession(options: UseSessionOptions = {}): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error("useSession() must be used inside a <SessionProvider>.");
  if (!options.required) return state;
  const mustLeave = () => state.status() === "unauthenticated";
  createEffect(() => {
    if (!mustLeave()) return;
    if (options.onUnauthenticated) {
      options.onUnauthenticated();
      return;
    }
    const params = new URLSearchParams({ error: "SessionRequired", callbackUrl: window.location.href });
    window.location.href = `${basePathOf()}/signin?${params}`;
  });
  return { ...state, status: () => (mustLeave() ? "loading" : state.status()) };
}
