/** The adapter's table names, each behind the configured prefix. */
export interface TableNames {
  users: string;
  accounts: string;
  sessions: string;
  verificationTokens: string;
  authenticators: string;
  leases: string;
  rateLimits: string;
  migrations: string;
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
    migrations: `${prefix}appauth_migrations`,
    migrationLock: `${prefix}appauth_migrations_lock`,
  };
}
