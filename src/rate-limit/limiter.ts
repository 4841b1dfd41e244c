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
import { deviceKeys, type DeviceKeys } from "./device.js";
import { foldIdentifier } from "./identifier.js";
import { toHex } from "../encoding.js";

export interface Limiter {
  limits: ResolvedLimits;
  store: RateLimitStore;
  /** The client address of a request, when it can be known. */
  address(request: Request): string | undefined;
  /** The prefix of this application's keys: two configurations sharing a store never share counts. */
  namespace(): Promise<string>;
  /** The keys device cookies are signed with. */
  devices: DeviceKeys;
}

/** What a configuration's limiter is told besides its options: its secrets and base path. */
export interface LimiterContext {
  secrets: readonly string[];
  basePath: string;
}

/** Warnings meant once per process and logger, not once per config object (a lazy config makes many). */
const PROCESS_ONCE = {};

/** The limiter a configuration asks for, or none with `rateLimit: false`. */
export function createLimiter(
  config: AuthConfig,
  logger: LoggerInstance = consoleLogger,
  context: LimiterContext = { secrets: [], basePath: config.basePath ?? "/auth" },
): Limiter | undefined {
  const options = config.rateLimit;
  if (options === false) return undefined;
  const chosen = options ?? {};
  const store =
    chosen.store ??
    (adapterCounts(config.adapter) ? adapterRateLimitStore(config.adapter) : memoryRateLimitStore({ maxKeys: chosen.maxKeys }));
  const warnings = { once: config.logger ?? PROCESS_ONCE };
  let namespace: Promise<string> | undefined = chosen.namespace === undefined ? undefined : Promise.resolve(`${chosen.namespace}:`);
  return {
    limits: resolveLimits(chosen),
    store,
    devices: deviceKeys(context.secrets),
    // A hash, not the secret: the keys may sit in clear in a custom store.
    namespace: () => (namespace ??= applicationNamespace(context)),
    address: clientAddressReader(chosen, logger, warnings),
  };
}

/** An account identifier as counted (src/rate-limit/identifier.ts). */
export { foldIdentifier as normalizeIdentifier };

/** The default namespace: the first 16 hex digits of SHA-256 over the secret and the base path. */
async function applicationNamespace(context: LimiterContext): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(["appauth rate limits", context.secrets[0] ?? "", context.basePath])));
  return `${toHex(new Uint8Array(digest)).slice(0, 16)}:`;
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
    return await count(limiter.store, "requests", [["requests", `${await limiter.namespace()}req:${address}`, rule]]);
  } catch (error) {
    logger.error("RateLimitStoreError", "The rate-limit store could not be reached; the request ceiling was not applied.", error);
    return ALLOWED;
  }
}

/** A password attempt as the limiter sees it: its folded identifier (none when malformed), and the browser's device. */
export interface CredentialsAttempt {
  identifier?: string;
  /** The device a valid device cookie for this identifier names. */
  device?: string;
}

function credentialKeys(limiter: Limiter, request: Request, prefix: string, attempt: CredentialsAttempt): { near: Check[]; far: Check[] } {
  const limits = limiter.limits.credentials;
  if (!limits) return { near: [], far: [] };
  const { identifier, device } = attempt;
  // The browser signed in as this identifier before: its own budget, which no one else can spend.
  if (identifier !== undefined && device) return { near: [["perDevice", `${prefix}d:${identifier}\u0000${device}`, limits.perClient]], far: [] };
  const address = limiter.address(request);
  const near: Check[] = [];
  if (address) near.push(["perAddress", `${prefix}a:${address}`, limits.perAddress]);
  if (address && identifier !== undefined) near.push(["perClient", `${prefix}i:${identifier}\u0000${address}`, limits.perClient]);
  const far: Check[] = identifier === undefined ? [] : [["perIdentifier", `${prefix}i:${identifier}`, limits.perIdentifier]];
  return { near, far };
}

/**
 * A password attempt: first the limits of where it comes from (this address across identifiers,
 * this identifier from this address; or this browser's device budget), and only when those allow
 * it the identifier's budget from all addresses — an attempt already refused spends nothing of the
 * budget that protects the person. A malformed attempt (no identifier) counts against its address.
 */
export async function checkCredentials(limiter: Limiter | undefined, request: Request, providerId: string, attempt: CredentialsAttempt): Promise<LimitVerdict> {
  if (!limiter?.limits.credentials) return ALLOWED;
  try {
    const { near, far } = credentialKeys(limiter, request, `${await limiter.namespace()}cred:${providerId}:`, attempt);
    const first = await count(limiter.store, "credentials", near);
    if (!first.allowed || far.length === 0) return first;
    const second = await count(limiter.store, "credentials", far);
    return { ...second, counts: { ...first.counts, ...second.counts } };
  } catch (error) {
    throw storeDown(error);
  }
}

/** A successful sign-in clears its identifier's failures, not its address's (a store that fails is logged: the sign-in stands). */
export async function clearCredentials(
  limiter: Limiter | undefined,
  request: Request,
  attempt: CredentialsAttempt & { providerId: string },
  logger: LoggerInstance,
): Promise<void> {
  if (!limiter?.limits.credentials || attempt.identifier === undefined) return;
  try {
    const { near, far } = credentialKeys(limiter, request, `${await limiter.namespace()}cred:${attempt.providerId}:`, attempt);
    const keys = [...near, ...far].filter(([name]) => name !== "perAddress");
    await Promise.all(keys.map(([, key]) => limiter.store.reset(key)));
  } catch (error) {
    logger.error("RateLimitStoreError", "The rate-limit store could not clear the failures of a successful sign-in.", error);
  }
}

/**
 * An email link: the requests for this address from this client, and all this client's requests
 * (past either: refused); then the mails this address received from anyone's requests (past one
 * per window: answered as sent, nothing sent — a stranger can neither lock the person out nor
 * flood their mailbox, and learns nothing from the answer).
 */
export async function checkEmail(limiter: Limiter | undefined, request: Request, providerId: string, email: string): Promise<LimitVerdict> {
  const limits = limiter?.limits.email;
  if (!limiter || !limits) return ALLOWED;
  try {
    const namespace = await limiter.namespace();
    const prefix = `${namespace}mail:${providerId}:`;
    const address = limiter.address(request);
    const mailbox = foldIdentifier(email);
    const near: Check[] = [["perEmail", `${prefix}${mailbox}\u0000${address ?? ""}`, limits.perEmail]];
    if (address) near.push(["perClient", `${namespace}mail:c:${address}`, limits.perClient]);
    const first = await count(limiter.store, "email", near);
    if (!first.allowed || !limits.mail) return first;
    const mailed = await count(limiter.store, "email", [["mail", mailKey(namespace, providerId, mailbox), limits.mail]]);
    const counts = { ...first.counts, ...mailed.counts };
    return mailed.allowed ? { ...first, counts } : { ...first, counts, quiet: true };
  } catch (error) {
    throw storeDown(error);
  }
}

/** The key of the mails one mailbox received (`mailbox`: the address as `foldIdentifier` folds it). */
function mailKey(namespace: string, providerId: string, mailbox: string): string {
  return `${namespace}mail:${providerId}:${mailbox}`;
}

/**
 * The mailbox has no working link any more (it was followed, or its mail could not be sent): the
 * next request mails one again. A store that fails is logged; the window then runs out on its own.
 */
export async function forgetMail(limiter: Limiter | undefined, providerId: string, email: string, logger: LoggerInstance): Promise<void> {
  if (!limiter?.limits.email?.mail) return;
  try {
    await limiter.store.reset(mailKey(await limiter.namespace(), providerId, foldIdentifier(email)));
  } catch (error) {
    logger.error("RateLimitStoreError", "The rate-limit store could not forget a mailbox's mail.", error);
  }
}
