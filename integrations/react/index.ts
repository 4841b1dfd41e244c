"use client";
/**
 * `appauth/react` — the React client of integration A: `SessionProvider` holds the session for
 * the component tree, `useSession()` reads it, and `signIn`/`signOut`/`getSession`/
 * `getCsrfToken`/`getProviders` talk to the library's routes. Tabs stay in step: a sign-in,
 * sign-out or update in one tab makes every tab refetch its session.
 *
 * ```tsx
 * // app/layout.tsx (a server component)
 * const session = await auth();
 * return <SessionProvider session={session}>{children}</SessionProvider>;
 * // a client component
 * const { data, status, update } = useSession();
 * ```
 *
 * Written with `createElement` rather than JSX, so it compiles with the rest of the package.
 */
import { createContext, createElement, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { Session } from "../../src/types.js";
import { onSessionChange, announce } from "../../src/client/channel.js";
import { basePathOf, refreshedSession, setClientBasePath, updateSession } from "../../src/client/fetch-client.js";

export { getSession, getCsrfToken, getProviders, signIn, signOut } from "../../src/client/fetch-client.js";
export type { ClientOptions, ClientProvider, SignInOptions, SignInResult, SignOutOptions, AuthorizationParams } from "../../src/client/fetch-client.js";
export type { Session } from "../../src/types.js";

export type SessionStatus = "loading" | "authenticated" | "unauthenticated";

export interface SessionContextValue {
  /** The session, or `null` when signed out or not known yet (see `status`). */
  data: Session | null;
  /** `loading` until the session is known, then `authenticated` or `unauthenticated`. */
  status: SessionStatus;
  /**
   * Without an argument: refetches the session. With `data`: posts it as an update (the jwt
   * callback sees `trigger: "update"`), and resolves with the new session (`null` if it failed).
   */
  update(data?: unknown): Promise<Session | null>;
}

const SessionContext = createContext<SessionContextValue | undefined>(undefined);

export interface SessionProviderProps {
  /** The part of the application that reads the session. */
  children?: ReactNode;
  /** The session read on the server (`await auth()`): the first render needs no fetch. */
  session?: Session | null;
  /** Where the library's routes are; default `/api/auth`. */
  basePath?: string;
  /** Refetch the session every this many seconds; 0 (default) never. */
  refetchInterval?: number;
  /** Refetch when the tab becomes visible again; default true. */
  refetchOnWindowFocus?: boolean;
  /** Also refetch on the interval while the browser is offline; default false. */
  refetchWhenOffline?: boolean;
}

/** Provides the session to `useSession()` below it, and keeps it current. */
export function SessionProvider(props: SessionProviderProps): ReactNode {
  const { children, session, basePath, refetchInterval = 0, refetchOnWindowFocus = true, refetchWhenOffline = false } = props;
  setClientBasePath(basePath);
  const client = useMemo(() => ({ basePath: basePathOf(basePath !== undefined ? { basePath } : undefined) }), [basePath]);
  const [data, setData] = useState<Session | null>(session ?? null);
  const shown = useRef(data);
  shown.current = data;
  const [loading, setLoading] = useState(session === undefined);
  // Answers can arrive out of order (focus, interval and broadcast together): only the latest counts.
  const latest = useRef(0);

  const refetch = useCallback(async (): Promise<Session | null> => {
    const ticket = ++latest.current;
    // A store outage (503) keeps the session shown: the person was not signed out.
    const fresh = await refreshedSession(shown.current, client);
    if (ticket === latest.current) {
      setData(fresh);
      setLoading(false);
    }
    return fresh;
  }, [client]);

  // A new session from the server (a server action signed in or out, then the page re-rendered):
  // take it, and tell the other tabs when someone signed in or out here.
  const fromServer = useRef(session);
  useEffect(() => {
    if (session === undefined) return;
    latest.current++;
    setData(session);
    setLoading(false);
    const before = fromServer.current;
    fromServer.current = session;
    if (before === undefined || before === session) return;
    if (Boolean(before?.user) !== Boolean(session?.user)) announce(session?.user ? "signin" : "signout", { local: false });
  }, [session]);

  useEffect(() => {
    // Only on mount, and only without a server-read session: later changes arrive through the other effects.
    if (session === undefined) void refetch();
  }, []);

  useEffect(() => onSessionChange(() => void refetch()), [refetch]);

  useEffect(() => {
    if (!refetchOnWindowFocus) return;
    const onVisible = () => {
      if (document.visibilityState === "visible") void refetch();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, [refetchOnWindowFocus, refetch]);

  useEffect(() => {
    if (!refetchInterval || refetchInterval <= 0) return;
    const timer = setInterval(() => {
      if (refetchWhenOffline || typeof navigator === "undefined" || navigator.onLine !== false) void refetch();
    }, refetchInterval * 1000);
    return () => clearInterval(timer);
  }, [refetchInterval, refetchWhenOffline, refetch]);

  const update = useCallback(
    async (payload?: unknown): Promise<Session | null> => {
      if (payload === undefined) return refetch();
      setLoading(true);
      const ticket = ++latest.current;
      const fresh = await updateSession(payload, client);
      if (ticket === latest.current) {
        setLoading(false);
        if (fresh) setData(fresh);
      }
      // The other tabs pick the change up; this one already has it.
      if (fresh) announce("update", { local: false });
      return fresh;
    },
    [client, refetch],
  );

  const value = useMemo<SessionContextValue>(
    () => ({ data, status: loading ? "loading" : data ? "authenticated" : "unauthenticated", update }),
    [data, loading, update],
  );
  return createElement(SessionContext.Provider, { value }, children);
}

export interface UseSessionOptions {
  /** The component needs a session: without one, `onUnauthenticated` runs (default: go to sign in). */
  required?: boolean;
  /** What to do when `required` and there is no session; default: go to the sign-in page. */
  onUnauthenticated?: () => void;
}

/**
 * The session, its status and `update`. With `required: true` an unauthenticated visitor is sent
 * to sign in (coming back here afterwards), and the status stays `loading` until then.
 */
export function useSession(options: UseSessionOptions = {}): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error("useSession() must be used inside a <SessionProvider>.");
  const { required = false, onUnauthenticated } = options;
  const mustLeave = required && value.status === "unauthenticated";
  useEffect(() => {
    if (!mustLeave) return;
    if (onUnauthenticated) {
      onUnauthenticated();
      return;
    }
    const params = new URLSearchParams({ error: "SessionRequired", callbackUrl: window.location.href });
    window.location.href = `${basePathOf()}/signin?${params}`;
  }, [mustLeave, onUnauthenticated]);
  if (mustLeave) return { data: value.data, status: "loading", update: value.update };
  return value;
}
