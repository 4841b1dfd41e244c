/**
 * The `rateLimit` option: brute-force and flood protection of the sign-in flows. On by default;
 * `rateLimit: false` switches it off, and each limit can be changed or switched off alone.
 */
import type { RateLimitStore } from "./store.js";

export interface RateLimitOptions {
  /**
   * Password guessing (credentials providers), per `window` seconds: at most `perAddress` attempts
   * from one client address whatever the identifiers (credential stuffing), `perClient` per account
   * identifier and client address, and `perIdentifier` per identifier from all addresses; an
   * attempt another limit refused does not spend `perIdentifier`. A browser that signed in as the
   * identifier before (its device cookie) has its own `perClient` budget instead, which nobody
   * else can spend. Past a limit, `authorize` is not called. A successful sign-in clears its
   * identifier's failures. Default `{ perAddress: 100, perClient: 5, perIdentifier: 20, window: 900 }`.
   */
  credentials?: false | { perAddress?: number; perClient?: number; perIdentifier?: number; window?: number };
  /**
   * Email links: at most `perEmail` requests per address and client per `window` seconds, and
   * `perClient` per client address per `clientWindow` seconds (past either, the request is refused
   * and nothing is sent); at most one mail to an address per `mailEvery` seconds however many
   * clients ask (past it, the request is answered as sent and nothing is sent; `mailEvery: false`
   * sends a mail for every request within the other limits).
   * Default `{ perEmail: 3, window: 900, perClient: 20, clientWindow: 3600, mailEvery: 300 }`.
   */
  email?: false | { perEmail?: number; window?: number; perClient?: number; clientWindow?: number; mailEvery?: number | false };
  /** Every POST route (and the passkey options): at most `perClient` per client address per `window` seconds. Default `{ perClient: 100, window: 10 }`. */
  requests?: false | { perClient?: number; window?: number };
  /**
   * Where the counts are kept. Default: the adapter's store when it can count (the SQL and Redis
   * adapters: limits hold across instances), else this process's memory.
   */
  store?: RateLimitStore;
  /**
   * The client's address for a request (e.g. a header your platform sets and a visitor cannot).
   * When set it decides alone. Default: the address the integration passed along (see
   * `setClientAddress`), read back through `X-Forwarded-For` when `trustProxy` says proxies are in
   * front, else unknown (per-address limits do not apply then).
   */
  clientAddress?: (request: Request) => string | null | undefined;
  /**
   * How many proxies in front of the app append to `X-Forwarded-For` (`true` is one). The platform's
   * address is then the nearest proxy's, and the client is the header's entry that many places from
   * its end; a header with fewer entries yields the platform's address. `false`: no proxy (and no
   * warning that the platform's address looks like one). Default: the header is never read.
   */
  trustProxy?: boolean | number;
  /** The most keys the in-memory store holds. Default 100000. */
  maxKeys?: number;
  /**
   * What this application's keys are prefixed with in the store, so configurations sharing one
   * store never share counts. Default: derived from the secret and the base path.
   */
  namespace?: string;
}

/** A limit with its window in milliseconds. */
export interface Rule {
  max: number;
  windowMs: number;
}

export interface ResolvedLimits {
  credentials?: { perAddress: Rule; perClient: Rule; perIdentifier: Rule };
  email?: { perEmail: Rule; perClient: Rule; mail?: Rule };
  requests?: Rule;
}

const seconds = (value: number | undefined, fallback: number) => (value ?? fallback) * 1000;

/** The limits in force for an option value (`undefined` for every default). */
export function resolveLimits(options: RateLimitOptions): ResolvedLimits {
  const limits: ResolvedLimits = {};
  const c = options.credentials;
  if (c !== false) {
    const windowMs = seconds(c?.window, 900);
    limits.credentials = {
      perAddress: { max: c?.perAddress ?? 100, windowMs },
      perClient: { max: c?.perClient ?? 5, windowMs },
      perIdentifier: { max: c?.perIdentifier ?? 20, windowMs },
    };
  }
  const e = options.email;
  if (e !== false) {
    limits.email = {
      perEmail: { max: e?.perEmail ?? 3, windowMs: seconds(e?.window, 900) },
      perClient: { max: e?.perClient ?? 20, windowMs: seconds(e?.clientWindow, 3600) },
    };
    if (e?.mailEvery !== false) limits.email.mail = { max: 1, windowMs: seconds(e?.mailEvery, 300) };
  }
  const r = options.requests;
  if (r !== false) limits.requests = { max: r?.perClient ?? 100, windowMs: seconds(r?.window, 10) };
  return limits;
}
