/**
 * The `rateLimit` option: brute-force and flood protection of the sign-in flows. On by default;
 * `rateLimit: false` switches it off, and each limit can be changed or switched off alone.
 */
import type { RateLimitStore } from "./store.js";

export interface RateLimitOptions {
  /**
   * Password guessing (credentials providers): at most `perClient` failed attempts per account
   * identifier and client address, and `perIdentifier` from all addresses, per `window` seconds.
   * Past either, `authorize` is not called. A successful sign-in clears its identifier's failures.
   * Default `{ perClient: 5, perIdentifier: 20, window: 900 }`.
   */
  credentials?: false | { perClient?: number; perIdentifier?: number; window?: number };
  /**
   * Email links: at most `perEmail` per address per `window` seconds, and `perClient` per client
   * address per `clientWindow` seconds. Past either, no mail is sent.
   * Default `{ perEmail: 3, window: 900, perClient: 20, clientWindow: 3600 }`.
   */
  email?: false | { perEmail?: number; window?: number; perClient?: number; clientWindow?: number };
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
}

/** A limit with its window in milliseconds. */
export interface Rule {
  max: number;
  windowMs: number;
}

export interface ResolvedLimits {
  credentials?: { perClient: Rule; perIdentifier: Rule };
  email?: { perEmail: Rule; perClient: Rule };
  requests?: Rule;
}

const seconds = (value: number | undefined, fallback: number) => (value ?? fallback) * 1000;

/** The limits in force for an option value (`undefined` for every default). */
export function resolveLimits(options: RateLimitOptions): ResolvedLimits {
  const limits: ResolvedLimits = {};
  const c = options.credentials;
  if (c !== false) {
    const windowMs = seconds(c?.window, 900);
    limits.credentials = { perClient: { max: c?.perClient ?? 5, windowMs }, perIdentifier: { max: c?.perIdentifier ?? 20, windowMs } };
  }
  const e = options.email;
  if (e !== false) {
    limits.email = {
      perEmail: { max: e?.perEmail ?? 3, windowMs: seconds(e?.window, 900) },
      perClient: { max: e?.perClient ?? 20, windowMs: seconds(e?.clientWindow, 3600) },
    };
  }
  const r = options.requests;
  if (r !== false) limits.requests = { max: r?.perClient ?? 100, windowMs: seconds(r?.window, 10) };
  return limits;
}
