/** The adapter's table names, each behind the configured prefix. */
export interface TableNames {
  /** The users (`users`). */
  users: string;
  /** The provider accounts linked to users (`accounts`). */
  accounts: string;
  /** The database sessions (`sessions`). */
  sessions: string;
  /** The email links' tokens, hashed (`verification_tokens`). */
  verificationTokens: string;
  /** The passkeys (`authenticators`). */
  authenticators: string;
  /** Short locks, such as the one a token refresh holds so that one request refreshes at a time (`leases`). */
  leases: string;
  /** The rate limiter's counters, when the adapter is its store (`rate_limits`). */
  rateLimits: string;
  /** Revocations of JWT sessions, per user and per session (`session_revocations`). */
  sessionRevocations: string;
  /** The users' TOTP factors, their secrets sealed (`two_factor`). */
  twoFactor: string;
  /** The users' unused recovery codes, as keyed hashes (`recovery_codes`). */
  recoveryCodes: string;
  /** Each user's factors version, raised by every change of their factors (`two_factor_versions`). */
  twoFactorVersions: string;
  /** The migrations applied, by name (`appauth_migrations`). */
  migrations: string;
  /** The lock that lets one process migrate at a time (`appauth_migrations_lock`). */
  migrationLock: string;
}

export function tableNames(prefix = ""): TableNames {
  return {
    users: `${prefix}users`,
    accounts: `${prefix}accounts`,
    sessions: `${prefix}sessions`,
    verificationTokens: `${prefix}verification_tokens`,
    authenticators: `${prefix}authenticators`,
    leases: `${prefix}leases`,
    rateLimits: `${prefix}rate_limits`,
    sessionRevocations: `${prefix}session_revocations`,
    twoFactor: `${prefix}two_factor`,
    recoveryCodes: `${prefix}recovery_codes`,
    twoFactorVersions: `${prefix}two_factor_versions`,
    migrations: `${prefix}appauth_migrations`,
    migrationLock: `${prefix}appauth_migrations_lock`,
  };
}
