/**
 * The rate limiter of one configuration: its limits, its store, and how it finds a request's client
 * address. The flows' effects ask it before the work a limit protects (`authorize`, a mail, a
 * challenge); each answer is a verdict the machine decides on, with the counts it saw.
 *
 * A store that cannot be reached fails closed for password attempts and email sends (the request is
 * refused, the error logged) and open for the general request ceiling (logged, the request goes on).
 */
import type { LimitVerdict } from "../../machines/shared.js";
import { StoreUnavailable } from "../errors.js";
import { consoleLogger } from "../logger.js";
import type { AuthConfig, LoggerInstance } from "../types.js";
import { clientAddressReader } from "./client-address.js";
import { resolveLimits, type ResolvedLimits, type Rule } from "./options.js";
import { adapterCounts, adapterRateLimitStore, memoryRateLimitStore, type RateLimitStore } from "./store.js";

export interface Limiter {
  limits: ResolvedLimits;
  store: RateLimitStore;
  /** The client address of a request, when it can be known. */
  address(request: Request): string | undefined;
}

/** Warnings meant once per process and logger, not once per config object (a lazy config makes many). */
const PROCESS_ONCE = {};

/** The limiter a configuration asks for, or none with `rateLimit: false`. */
export function createLimiter(config: AuthConfig, logger: LoggerInstance = consoleLogger): Limiter | undefined {
  const options = config.rateLimit;
  if (options === false) return undefined;
  const chosen = options ?? {};
  const store =
    chosen.store ??
    (adapterCounts(config.adapter) ? adapterRateLimitStore(config.adapter) : memoryRateLimitStore({ maxKeys: chosen.maxKeys }));
  const warnings = { once: config.logger ?? PROCESS_ONCE };
  return { limits: resolveLimits(chosen), store, address: clientAddressReader(chosen, logger, warnings) };
}

/**
 * An account identifier as counted: Unicode compatibility forms folded (NFKC), case folded, runs
 * of whitespace made one space and trimmed, so variants of one identifier share one budget.
 */
export function normalizeIdentifier(value: string): string {
  return value.normalize("NFKC").toLowerCase().replace(/\s+/gu, " ").trim().slice(0, 512);
}

export const ALLOWED: LimitVerdict = Object.freeze({ allowed: true, retryAfter: 0, counts: {} }) as LimitVerdict;

type Check = [name: string, key: string, rule: Rule];

/** Counts one hit on every check; refused when any is past its limit, retry when the last refusing window closes. */
async function count(store: RateLimitStore, scope: LimitVerdict["scope"], checks: Check[]): Promise<LimitVerdict> {
  if (checks.length === 0) return ALLOWED;
  const hits = await Promise.all(checks.map(([, key, rule]) => store.hit(key, rule.windowMs)));
  const counts: Record<string, number> = {};
  let refusedBy: string | undefined;
  let retryMs = 0;
  hits.forEach((hit, i) => {
    const [name, , rule] = checks[i]!;
    counts[name] = hit.count;
    if (hit.count > rule.max) {
      refusedBy ??= name;
      retryMs = Math.max(retryMs, hit.resetIn);
    }
  });
  if (!refusedBy) return { allowed: true, retryAfter: 0, counts, scope };
  return { allowed: false, retryAfter: Math.max(1, Math.ceil(retryMs / 1000)), counts, scope, limit: refusedBy };
}

function storeDown(error: unknown): StoreUnavailable {
  return new StoreUnavailable(
    "The rate-limit store could not be reached, so password sign-ins and email links are refused until it answers (they fail closed). Check the store's connection.",
    { cause: error },
  );
}

/** The general ceiling of one client address; a store that fails lets the request through (logged). */
export async function checkRequest(limiter: Limiter | undefined, request: Request, logger: LoggerInstance): Promise<LimitVerdict> {
  const rule = limiter?.limits.requests;
  if (!limiter || !rule) return ALLOWED;
  const address = limiter.address(request);
  if (!address) return ALLOWED;
  try {
    return await count(limiter.store, "requests", [["requests", `req:${address}`, rule]]);
  } catch (error) {
    logger.error("RateLimitStoreError", "The rate-limit store could not be reached; the request ceiling was not applied.", error);
    return ALLOWED;
  }
}

function credentialKeys(limiter: Limiter, request: Request, providerId: string, identifier: string | undefined): Check[] {
  const limits = limiter.limits.credentials;
  const checks: Check[] = [];
  if (!limits) return checks;
  const address = limiter.address(request);
  // No identifier to count by: the client's attempts are counted together, with the larger budget.
  if (identifier === undefined) {
    if (address) checks.push(["perIdentifier", `cred:${providerId}:\u0000${address}`, limits.perIdentifier]);
    return checks;
  }
  if (address) checks.push(["perClient", `cred:${providerId}:${identifier}\u0000${address}`, limits.perClient]);
  checks.push(["perIdentifier", `cred:${providerId}:${identifier}`, limits.perIdentifier]);
  return checks;
}

/** A password attempt: the identifier's failures from this address and from all. */
export async function checkCredentials(limiter: Limiter | undefined, request: Request, providerId: string, identifier: string | undefined): Promise<LimitVerdict> {
  if (!limiter) return ALLOWED;
  try {
    return await count(limiter.store, "credentials", credentialKeys(limiter, request, providerId, identifier));
  } catch (error) {
    throw storeDown(error);
  }
}

/** A successful sign-in clears its identifier's failures (a store that fails is logged: the sign-in stands). */
export async function clearCredentials(
  limiter: Limiter | undefined,
  request: Request,
  providerId: string,
  identifier: string | undefined,
  logger: LoggerInstance,
): Promise<void> {
  if (!limiter) return;
  const keys = credentialKeys(limiter, request, providerId, identifier);
  try {
    await Promise.all(keys.map(([, key]) => limiter.store.reset(key)));
  } catch (error) {
    logger.error("RateLimitStoreError", "The rate-limit store could not clear the failures of a successful sign-in.", error);
  }
}

/** An email link: the mails to this address, and the mails asked for from this client. */
export async function checkEmail(limiter: Limiter | undefined, request: Request, providerId: string, email: string): Promise<LimitVerdict> {
  if (!limiter) return ALLOWED;
  const checks: Check[] = [];
  const limits = limiter.limits.email;
  if (limits) {
    const address = limiter.address(request);
    checks.push(["perEmail", `mail:${providerId}:${normalizeIdentifier(email)}`, limits.perEmail]);
    if (address) checks.push(["perClient", `mail:${address}`, limits.perClient]);
  }
  try {
    return await count(limiter.store, "email", checks);
  } catch (error) {
    throw storeDown(error);
  }
}
