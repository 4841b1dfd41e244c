/**
 * Reading (GET /session) and updating (POST /session) a database session. The cookie holds only a
 * session token; the record and its user are loaded together (an expired record is removed by the
 * load), the expiry is pushed forward at most once per `updateAge`, and the `session` callback
 * shapes what the client sees. Time comes in as input: the machine has no clock.
 */
import { assign, emit, setup } from "xstate";
import type { AdapterAccount, AdapterSession, AdapterUser, Session, SessionError } from "../src/types.js";
import { defaultUserSession, effect, type FlowFailure, type SetCookie, type RequestFacts } from "./shared.js";

export interface DatabaseSessionInput {
  /** The session cookie's value; absent when there is no cookie. */
  sessionToken?: string;
  /** Present on POST /session: the client's `data`, handed to the session callback. */
  update?: { data: unknown };
  /** Milliseconds since the epoch when the request arrived. */
  now: number;
  /** Seconds a session lives from its last extension. */
  maxAge: number;
  /** Seconds between two extensions of the expiry (0: every read). */
  updateAge: number;
  /** Whether the application has its own `session` callback; without one, the default runs here. */
  callbacks: { session: boolean };
  /** providerId → refresh margin (seconds), for the providers whose access tokens are refreshed. */
  refresh?: Readonly<Record<string, number>>;
  /** The request the flow runs for, as plain facts (its live request reaches only the effects). */
  request: RequestFacts;
}

/** The signed-in account as a session read leaves it: its tokens refreshed when they were due. */
export type RefreshedAccount = { account: AdapterAccount | null; error?: SessionError };

type Loaded = { session: AdapterSession; user: AdapterUser };

export interface DatabaseSessionContext extends DatabaseSessionInput {
  record?: AdapterSession;
  user?: AdapterUser;
  session?: Session;
  cookies: SetCookie[];
  failure?: FlowFailure;
  /** The account the session was signed in with, for the `session` callback (refreshed sessions only). */
  account?: AdapterAccount;
  sessionError?: SessionError;
}

export type DatabaseSessionOutput =
  | { outcome: "active"; session: Session; cookies: SetCookie[] }
  | { outcome: "none" }
  | { outcome: "invalid"; failure?: FlowFailure };

export type DatabaseSessionEmitted = { type: "session"; session: Session };

/** What a record says its sign-in proved, for the session callback: nothing when it does not say. */
function proofOf(record: AdapterSession): { amr?: string[]; authTime?: string } {
  if (!Array.isArray(record.amr)) return {};
  const at = record.authTime instanceof Date && Number.isFinite(record.authTime.getTime()) ? record.authTime.toISOString() : undefined;
  return { amr: [...record.amr], ...(at ? { authTime: at } : {}) };
}

export const databaseSessionMachine = setup({
  types: {
    input: {} as DatabaseSessionInput,
    context: {} as DatabaseSessionContext,
    output: {} as DatabaseSessionOutput,
    emitted: {} as DatabaseSessionEmitted,
  },
  actors: {
    loadSession: effect<Loaded | null, { sessionToken: string; now: number }>("loadSession"),
    extendSession: effect<
      { session: AdapterSession; cookies: SetCookie[] },
      { session: AdapterSession; expires: number; request: RequestFacts }
    >("extendSession"),
    sessionCallback: effect<
      Session,
      {
        user: AdapterUser;
        sessionToken: string;
        expires: string;
        trigger?: "update";
        newSession?: unknown;
        account?: AdapterAccount;
        error?: SessionError;
        /** What the sign-in proved (RFC 8176) and when (ISO 8601), where the record says. */
        amr?: string[];
        authTime?: string;
      }
    >("sessionCallback"),
    refreshAccount: effect<RefreshedAccount, { provider: string; providerAccountId: string; userId: string; now: number }>(
      "refreshAccount",
    ),
  },
  actions: {
    recordFailure: assign((_, params: FlowFailure) => ({ failure: params })),
    rememberRecord: assign((_, loaded: Loaded) => ({ record: loaded.session, user: loaded.user })),
    rememberExtension: assign((_, extended: { session: AdapterSession; cookies: SetCookie[] }) => ({
      record: extended.session,
      cookies: extended.cookies,
    })),
    rememberSession: assign((_, session: Session) => ({ session })),
    // rememberRecord and useDefaultSession in one update: the quiet read's last step.
    rememberRecordWithDefaultSession: assign((_, loaded: Loaded) => ({
      record: loaded.session,
      user: loaded.user,
      session: defaultUserSession(loaded.user, loaded.session.expires.toISOString()),
    })),
    useDefaultSession: assign(({ context }) => ({
      session: defaultUserSession(context.user!, context.record!.expires.toISOString(), context.sessionError),
    })),
    rememberAccount: assign((_, refreshed: RefreshedAccount) => ({
      ...(refreshed.account ? { account: refreshed.account } : {}),
      ...(refreshed.error ? { sessionError: refreshed.error } : {}),
    })),
    noteRefreshUnavailable: assign({ sessionError: "RefreshTokenUnavailable" as const }),
    announceSession: emit(({ context }) => ({ type: "session" as const, session: context.session! })),
  },
  guards: {
    hasSessionCallback: ({ context }) => context.callbacks.session,
    hasToken: ({ context }) => typeof context.sessionToken === "string" && context.sessionToken.length > 0,
    sessionMissing: (_, loaded: Loaded | null) => loaded === null,
    // Signed in with an account whose provider's access tokens are refreshed. Given the record just
    // loaded (params), it is asked of that record before it is remembered.
    refreshesAccount: ({ context }, loaded?: Loaded) => {
      const { provider, providerAccountId } = loaded ? loaded.session : context.record!;
      return typeof provider === "string" && typeof providerAccountId === "string" && context.refresh?.[provider] !== undefined;
    },
    // Extended at most once per updateAge: the last extension set expires to (then + maxAge).
    extensionDue: ({ context }, loaded?: Loaded) => {
      const lastExtended = (loaded ? loaded.session : context.record!).expires.valueOf() - context.maxAge * 1000;
      return context.now - lastExtended >= context.updateAge * 1000;
    },
  },
}).createMachine({
  id: "databaseSession",
  context: ({ input }) => ({ ...input, cookies: [] }),
  initial: "checkingCookie",
  states: {
    checkingCookie: {
      always: [{ guard: "hasToken", target: "loading" }, { target: "noSession" }],
    },
    // A loaded record goes straight to the first step it needs (the checks of checkingRefresh and
    // shapingSession, asked of the record just loaded): a read with nothing to extend or refresh and
    // no session callback ends here, without a pass through each check.
    loading: {
      invoke: {
        src: "loadSession",
        input: ({ context }) => ({ sessionToken: context.sessionToken!, now: context.now }),
        onDone: [
          { guard: { type: "sessionMissing", params: ({ event }) => event.output }, target: "invalid" },
          {
            guard: { type: "extensionDue", params: ({ event }) => event.output! },
            target: "extending",
            actions: { type: "rememberRecord", params: ({ event }) => event.output! },
          },
          {
            guard: { type: "refreshesAccount", params: ({ event }) => event.output! },
            target: "refreshingAccount",
            actions: { type: "rememberRecord", params: ({ event }) => event.output! },
          },
          {
            guard: "hasSessionCallback",
            target: "runningSessionCallback",
            actions: { type: "rememberRecord", params: ({ event }) => event.output! },
          },
          {
            target: "active",
            actions: { type: "rememberRecordWithDefaultSession", params: ({ event }) => event.output! },
          },
        ],
        onError: { target: "invalid", actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error }) } },
      },
    },
    extending: {
      invoke: {
        src: "extendSession",
        input: ({ context }) => ({ session: context.record!, expires: context.now + context.maxAge * 1000, request: context.request }),
        onDone: { target: "checkingRefresh", actions: { type: "rememberExtension", params: ({ event }) => event.output } },
        onError: { target: "invalid", actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error }) } },
      },
    },
    checkingRefresh: {
      always: [{ guard: "refreshesAccount", target: "refreshingAccount" }, { target: "shapingSession" }],
    },
    refreshingAccount: {
      invoke: {
        src: "refreshAccount",
        input: ({ context }) => ({
          provider: context.record!.provider!,
          providerAccountId: context.record!.providerAccountId!,
          userId: context.user!.id,
          now: context.now,
        }),
        onDone: { target: "shapingSession", actions: { type: "rememberAccount", params: ({ event }) => event.output } },
        // The session stays; only its access token could not be renewed on this read.
        onError: { target: "shapingSession", actions: "noteRefreshUnavailable" },
      },
    },
    shapingSession: {
      always: [
        { guard: "hasSessionCallback", target: "runningSessionCallback" },
        { target: "active", actions: "useDefaultSession" },
      ],
    },
    runningSessionCallback: {
      invoke: {
        src: "sessionCallback",
        input: ({ context }) => ({
          user: context.user!,
          sessionToken: context.record!.sessionToken,
          expires: context.record!.expires.toISOString(),
          ...(context.update ? { trigger: "update" as const, newSession: context.update.data } : {}),
          ...(context.account ? { account: context.account } : {}),
          ...(context.sessionError ? { error: context.sessionError } : {}),
          ...proofOf(context.record!),
        }),
        onDone: { target: "active", actions: { type: "rememberSession", params: ({ event }) => event.output } },
        onError: { target: "invalid", actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error }) } },
      },
    },
    active: {
      type: "final",
      entry: "announceSession",
      output: ({ context }) => ({ outcome: "active", session: context.session!, cookies: context.cookies }),
    },
    noSession: { type: "final", output: () => ({ outcome: "none" }) },
    invalid: {
      type: "final",
      output: ({ context }) => (context.failure ? { outcome: "invalid", failure: context.failure } : { outcome: "invalid" }),
    },
  },
  output: ({ event }) => event.output as DatabaseSessionOutput,
});
