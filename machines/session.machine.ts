/**
 * Reading (GET /session) and updating (POST /session) a JWT session. The token is decoded, passed
 * through the `jwt` callback, re-issued only when it changed, was opened by an older secret, or is
 * older than `updateAge` (rolling expiry without re-encrypting on every read), and shaped by the
 * `session` callback. Time comes in as input: the machine has no clock.
 */
import { assign, emit, setup } from "xstate";
import type { JWT, Session, SessionAccount } from "../src/types.js";
import { defaultTokenSession, effect, type ConfiguredCallbacks, type FlowFailure, type SetCookie, type RequestFacts } from "./shared.js";
import { refreshDue, type TokenRefreshOutput } from "./token-refresh.machine.js";

export interface SessionInput {
  /** The session cookie's value, joined from its chunks; absent when there is no cookie. */
  token?: string;
  /** Present on POST /session: the client's `data`, handed to the callbacks as an update. */
  update?: { data: unknown };
  /** Milliseconds since the epoch when the request arrived. */
  now: number;
  /** Seconds a token may age before a read re-issues it (0: every read). */
  updateAge: number;
  /** The application's own callbacks; without one, its default (pure) runs here instead of an effect. */
  callbacks: ConfiguredCallbacks;
  /** providerId → refresh margin (seconds), for the providers whose access tokens are refreshed. */
  refresh?: Readonly<Record<string, number>>;
  /** The request the flow runs for, as plain facts (its live request reaches only the effects). */
  request: RequestFacts;
}

export interface SessionContext extends SessionInput {
  payload?: JWT;
  secretIndex: number;
  changed: boolean;
  expires?: string;
  session?: Session;
  cookies: SetCookie[];
  failure?: FlowFailure;
  /** A refresh that could not be done on this read (not kept in the token: the next read retries). */
  refreshUnavailable?: boolean;
}

export type SessionOutput =
  | { outcome: "active"; session: Session; cookies: SetCookie[] }
  | { outcome: "none" }
  | { outcome: "invalid"; failure?: FlowFailure };

export type SessionEmitted = { type: "session"; session: Session; token: JWT };

type Opened = { payload: JWT; secretIndex: number };
type Decoded = Opened | null;
type CallbackResult = { token: JWT | null; changed: boolean };

/** The largest time a JavaScript Date can hold, in seconds. */
const MAX_EPOCH_SECONDS = 8.64e12;

/** When a token that is not re-issued expires, as the session shows it. */
const tokenExpiry = (payload: JWT) => new Date((payload.exp ?? 0) * 1000).toISOString();

export const sessionMachine = setup({
  types: {
    input: {} as SessionInput,
    context: {} as SessionContext,
    output: {} as SessionOutput,
    emitted: {} as SessionEmitted,
  },
  actors: {
    decodeSessionToken: effect<Decoded, { token: string; request: RequestFacts }>("decodeSessionToken"),
    jwtCallback: effect<CallbackResult, { token: JWT; trigger?: "update"; session?: unknown }>("jwtCallback"),
    encodeSessionToken: effect<{ cookies: SetCookie[]; expires: string }, { token: JWT; request: RequestFacts }>(
      "encodeSessionToken",
    ),
    sessionCallback: effect<
      Session,
      { token: JWT; expires: string; trigger?: "update"; newSession?: unknown; error?: "RefreshTokenUnavailable" }
    >("sessionCallback"),
    refreshAccount: effect<TokenRefreshOutput, { account: SessionAccount; userId?: string; now: number }>("refreshAccount"),
  },
  actions: {
    recordFailure: assign((_, params: FlowFailure) => ({ failure: params })),
    rememberToken: assign((_, opened: Opened) => ({ payload: opened.payload, secretIndex: opened.secretIndex })),
    // A token the refresh already changed stays changed, whatever the jwt callback did with it.
    keepCallbackToken: assign(({ context }, kept: CallbackResult) => ({ payload: kept.token!, changed: context.changed || kept.changed })),
    keepTokenExpiry: assign(({ context }) => ({ expires: tokenExpiry(context.payload!) })),
    rememberReissue: assign((_, issued: { cookies: SetCookie[]; expires: string }) => issued),
    rememberSession: assign((_, session: Session) => ({ session })),
    // rememberToken, keepTokenExpiry and useDefaultSession in one update: the quiet read's last step.
    rememberTokenWithDefaultSession: assign((_, opened: Opened) => {
      const expires = tokenExpiry(opened.payload);
      return { payload: opened.payload, secretIndex: opened.secretIndex, expires, session: defaultTokenSession(opened.payload, expires) };
    }),
    useDefaultSession: assign(({ context }) => ({
      session: defaultTokenSession(context.payload!, context.expires!, context.refreshUnavailable ? "RefreshTokenUnavailable" : undefined),
    })),
    applyRefresh: assign(({ context }, refreshed: TokenRefreshOutput) => {
      const account = context.payload!.account!;
      if (refreshed.outcome === "refreshed") {
        const { id_token, ...tokens } = refreshed.tokens;
        // The ID token is kept only where it already was (for RP-initiated logout).
        const renewed: SessionAccount = { ...account, ...tokens, ...(account.id_token && id_token ? { id_token } : {}) } as SessionAccount;
        return { payload: { ...context.payload!, account: renewed }, changed: true };
      }
      if (refreshed.outcome === "refused") {
        const { refresh_token: _spent, ...rest } = account;
        return { payload: { ...context.payload!, account: { ...rest, error: "RefreshTokenError" as const } }, changed: true };
      }
      return refreshed.outcome === "unavailable" ? { refreshUnavailable: true } : {};
    }),
    noteRefreshUnavailable: assign({ refreshUnavailable: true }),
    announceSession: emit(({ context }) => ({ type: "session" as const, session: context.session!, token: context.payload! })),
  },
  guards: {
    hasJwtCallback: ({ context }) => context.callbacks.jwt,
    // The signed-in account's access token has expired (or is about to), and nobody refused its refresh
    // token yet. Given the token just opened (params), it is asked of that token before it is remembered.
    refreshDue: ({ context }, opened?: Opened) => {
      const account = (opened ?? context).payload?.account;
      const margin = account ? context.refresh?.[account.provider] : undefined;
      return account !== undefined && margin !== undefined && account.error === undefined && refreshDue(account, context.now, margin);
    },
    hasSessionCallback: ({ context }) => context.callbacks.session,
    hasToken: ({ context }) => typeof context.token === "string" && context.token.length > 0,
    tokenRejected: (_, output: Decoded) => output === null,
    tokenKept: (_, output: CallbackResult) => output.token !== null && typeof output.token === "object",
    // As refreshDue: of the token just opened when given one, else of the token in context.
    reissueDue: ({ context }, opened?: Opened) => {
      const { payload, secretIndex } = opened ?? context;
      if (context.update || context.changed || secretIndex > 0) return true;
      // A token without a usable expiry (possible with a custom jwt.decode) gets a fresh one.
      const exp = payload?.exp;
      if (typeof exp !== "number" || !Number.isFinite(exp) || Math.abs(exp) > MAX_EPOCH_SECONDS) return true;
      const iat = typeof payload?.iat === "number" ? payload.iat : 0;
      return context.now - iat * 1000 >= context.updateAge * 1000;
    },
  },
}).createMachine({
  id: "session",
  context: ({ input }) => ({ ...input, secretIndex: 0, changed: false, cookies: [] }),
  initial: "checkingCookie",
  states: {
    checkingCookie: {
      always: [{ guard: "hasToken", target: "decoding" }, { target: "noSession" }],
    },
    // An opened token goes straight to the first step it needs (the checks of checkingJwtCallback,
    // checkingExpiry and shapingSession, asked of the token just opened): a read with nothing to
    // refresh, no callbacks and no re-issue ends here, without a pass through each check.
    decoding: {
      invoke: {
        src: "decodeSessionToken",
        input: ({ context }) => ({ token: context.token!, request: context.request }),
        onDone: [
          { guard: { type: "tokenRejected", params: ({ event }) => event.output }, target: "invalid" },
          {
            guard: { type: "refreshDue", params: ({ event }) => event.output! },
            target: "refreshingAccount",
            actions: { type: "rememberToken", params: ({ event }) => event.output! },
          },
          {
            guard: "hasJwtCallback",
            target: "runningJwtCallback",
            actions: { type: "rememberToken", params: ({ event }) => event.output! },
          },
          {
            guard: { type: "reissueDue", params: ({ event }) => event.output! },
            target: "reissuing",
            actions: { type: "rememberToken", params: ({ event }) => event.output! },
          },
          {
            guard: "hasSessionCallback",
            target: "runningSessionCallback",
            actions: [{ type: "rememberToken", params: ({ event }) => event.output! }, "keepTokenExpiry"],
          },
          {
            target: "active",
            actions: { type: "rememberTokenWithDefaultSession", params: ({ event }) => event.output! },
          },
        ],
        onError: { target: "invalid", actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error, as: "SessionTokenError" as const }) } },
      },
    },
    refreshingAccount: {
      invoke: {
        src: "refreshAccount",
        input: ({ context }) => ({
          account: context.payload!.account!,
          ...(context.payload!.sub !== undefined ? { userId: context.payload!.sub } : {}),
          now: context.now,
        }),
        onDone: { target: "checkingJwtCallback", actions: { type: "applyRefresh", params: ({ event }) => event.output } },
        // The session stays; only its access token could not be renewed on this read.
        onError: {
          target: "checkingJwtCallback",
          actions: "noteRefreshUnavailable",
        },
      },
    },
    checkingJwtCallback: {
      always: [{ guard: "hasJwtCallback", target: "runningJwtCallback" }, { target: "checkingExpiry" }],
    },
    runningJwtCallback: {
      invoke: {
        src: "jwtCallback",
        input: ({ context }) =>
          context.update
            ? { token: context.payload!, trigger: "update" as const, session: context.update.data }
            : { token: context.payload! },
        onDone: [
          {
            guard: { type: "tokenKept", params: ({ event }) => event.output },
            target: "checkingExpiry",
            actions: { type: "keepCallbackToken", params: ({ event }) => event.output },
          },
          { target: "invalid" },
        ],
        onError: { target: "invalid", actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error }) } },
      },
    },
    checkingExpiry: {
      always: [
        { guard: "reissueDue", target: "reissuing" },
        {
          target: "shapingSession",
          actions: "keepTokenExpiry",
        },
      ],
    },
    reissuing: {
      invoke: {
        src: "encodeSessionToken",
        input: ({ context }) => ({ token: context.payload!, request: context.request }),
        onDone: {
          target: "shapingSession",
          actions: { type: "rememberReissue", params: ({ event }) => event.output },
        },
        onError: { target: "invalid", actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error }) } },
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
          token: context.payload!,
          expires: context.expires!,
          ...(context.update ? { trigger: "update" as const, newSession: context.update.data } : {}),
          ...(context.refreshUnavailable ? { error: "RefreshTokenUnavailable" as const } : {}),
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
  output: ({ event }) => event.output as SessionOutput,
});
