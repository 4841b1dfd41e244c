/**
 * Values and keys of the Redis adapter. Values are JSON in which every Date is tagged (`{"$date": iso}`)
 * and revived on read, so Dates come back as Dates in any field, extra ones included, while a string that
 * merely looks like a date stays a string. Key parts are escaped (`%` and `:`), so no id, email or
 * provider can make one key look like another.
 */

const DATE_TAG = "$date";

export function serialize(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, json: unknown) {
    // `json` went through Date#toJSON already; the holder still has the Date itself.
    const raw = this[key];
    return raw instanceof Date ? { [DATE_TAG]: raw.toISOString() } : json;
  });
}

export function deserialize<T>(text: string): T {
  return JSON.parse(text, (_key, value: unknown) => {
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      const keys = Object.keys(value);
      const tagged = (value as Record<string, unknown>)[DATE_TAG];
      if (keys.length === 1 && typeof tagged === "string") return new Date(tagged);
    }
    return value;
  }) as T;
}

/** Escapes one key part; the Lua scripts escape the same way (see `scripts.ts`). */
export function part(value: string): string {
  return value.replaceAll("%", "%25").replaceAll(":", "%3A");
}

export interface Keys {
  user(id: string): string;
  userByEmail(email: string): string;
  userAccounts(userId: string): string;
  userSessions(userId: string): string;
  userAuthenticators(userId: string): string;
  /** A hash of the user's second factors by factor id, and a set of their recovery-code hashes. */
  userTwoFactors(userId: string): string;
  userRecoveryCodes(userId: string): string;
  /** The user's factors version (a counter raised by every change of their factors). */
  userTwoFactorVersion(userId: string): string;
  account(provider: string, providerAccountId: string): string;
  session(sessionToken: string): string;
  verification(identifier: string, token: string): string;
  authenticator(credentialID: string): string;
  /** Sets of the session tokens signed in through one provider account, and through one provider session. */
  sessionsByAccount(provider: string, providerAccountId: string): string;
  sessionsByProviderSession(provider: string, providerSessionId: string): string;
  lease(key: string): string;
  rateLimit(key: string): string;
  /** A user's session revocations (a hash: `user` → the per-user record, `s:<sessionId>` → expiry). */
  revocations(userId: string): string;
  /** The prefix of `session(token)` keys, for scripts that find a session from an index. */
  sessionPrefix: string;
  /** The prefix of `user(id)` keys, for scripts that find a user from a stored record. */
  userPrefix: string;
}

export function keys(prefix: string): Keys {
  return {
    user: (id) => `${prefix}user:${part(id)}`,
    userByEmail: (email) => `${prefix}user:email:${part(email)}`,
    userAccounts: (userId) => `${prefix}user:${part(userId)}:accounts`,
    userSessions: (userId) => `${prefix}user:${part(userId)}:sessions`,
    userAuthenticators: (userId) => `${prefix}user:${part(userId)}:authenticators`,
    userTwoFactors: (userId) => `${prefix}user:${part(userId)}:two-factor`,
    userRecoveryCodes: (userId) => `${prefix}user:${part(userId)}:recovery-codes`,
    userTwoFactorVersion: (userId) => `${prefix}user:${part(userId)}:two-factor-version`,
    account: (provider, providerAccountId) => `${prefix}account:${part(provider)}:${part(providerAccountId)}`,
    session: (sessionToken) => `${prefix}session:${part(sessionToken)}`,
    verification: (identifier, token) => `${prefix}verification:${part(identifier)}:${part(token)}`,
    authenticator: (credentialID) => `${prefix}authenticator:${part(credentialID)}`,
    sessionsByAccount: (provider, providerAccountId) =>
      `${prefix}sessions:account:${part(provider)}:${part(providerAccountId)}`,
    sessionsByProviderSession: (provider, providerSessionId) =>
      `${prefix}sessions:sid:${part(provider)}:${part(providerSessionId)}`,
    lease: (key) => `${prefix}lease:${part(key)}`,
    rateLimit: (key) => `${prefix}ratelimit:${part(key)}`,
    revocations: (userId) => `${prefix}revocations:${part(userId)}`,
    sessionPrefix: `${prefix}session:`,
    userPrefix: `${prefix}user:`,
  };
}
