/**
 * Rows to records and back. Only known columns are written (extra fields on a record are tolerated and
 * not stored); values come back in the contract's types whatever the driver returns: Dates as Dates,
 * `bigint` columns (strings from node-postgres) as numbers, a missing email (NULL) as `null`, 0/1 as booleans, and an account's absent
 * OAuth values as absent keys rather than `null`.
 */
import type {
  AdapterAccount,
  AdapterAuthenticator,
  AdapterSession,
  AdapterUser,
  VerificationToken,
} from "../../types.js";
import type { SqlDialect } from "./dialect.js";

export type Row = Record<string, unknown>;

export const USER_COLUMNS = ["id", "name", "email", "emailVerified", "image"] as const;
/** What a session remembers of the sign-in behind it (NULL for sign-ins without a provider account). */
export const SESSION_LINK_COLUMNS = ["provider", "providerAccountId", "providerSessionId"] as const;
/** What a session remembers for the list of a person's sessions (migration 0005; NULL for older rows). */
export const SESSION_INFO_COLUMNS = ["createdAt", "lastSeenAt", "signInMethod", "device", "clientAddress"] as const;
/** What the sign-in behind a session proved (migration 0008; NULL for older rows and other sign-ins). */
export const SESSION_PROOF_COLUMNS = ["amr", "authTime"] as const;
export const SESSION_COLUMNS = ["sessionToken", "userId", "expires", ...SESSION_LINK_COLUMNS, ...SESSION_INFO_COLUMNS, ...SESSION_PROOF_COLUMNS] as const;
export const ACCOUNT_COLUMNS = [
  "userId",
  "type",
  "provider",
  "providerAccountId",
  "refresh_token",
  "access_token",
  "expires_at",
  "token_type",
  "scope",
  "id_token",
  "session_state",
  "dpop_jwk",
] as const;
export const LEASE_COLUMNS = ["key", "holder", "expires"] as const;
export const AUTHENTICATOR_COLUMNS = [
  "credentialID",
  "userId",
  "providerAccountId",
  "credentialPublicKey",
  "counter",
  "credentialDeviceType",
  "credentialBackedUp",
  "transports",
] as const;

export function toDate(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  if (typeof value === "number" || typeof value === "bigint") return new Date(Number(value));
  if (typeof value === "string") return /^-?\d+$/.test(value) ? new Date(Number(value)) : new Date(value);
  throw new TypeError(`SqlAdapter: cannot read ${typeof value} as a date`);
}

function toNumber(value: unknown): number {
  return typeof value === "number" ? value : Number(value);
}

function toBoolean(value: unknown): boolean {
  return value === true || value === 1 || value === "1" || value === 1n || value === "t" || value === "true";
}

/** The column values of `record` for `columns`, skipping undefined ones, encoded for `dialect`. */
export function encode(record: object, columns: readonly string[], dialect: SqlDialect): Row {
  const row: Row = {};
  for (const column of columns) {
    const value = (record as Row)[column];
    if (value === undefined) continue;
    // No email is NULL, so the unique index lets any number of users have none.
    if (column === "email" && !value) row[column] = null;
    // A session's RFC 8176 values are short tokens without spaces: kept as one space-separated column.
    else if (column === "amr" && Array.isArray(value)) row[column] = value.join(" ");
    // SQLite has neither dates nor booleans (better-sqlite3 refuses to bind them).
    else if (value instanceof Date) row[column] = dialect === "sqlite" ? value.getTime() : value;
    else if (typeof value === "boolean") row[column] = dialect === "sqlite" ? Number(value) : value;
    else row[column] = value;
  }
  return row;
}

export function decodeUser(row: Row): AdapterUser {
  return {
    id: String(row.id),
    name: (row.name as string | null | undefined) ?? null,
    email: typeof row.email === "string" && row.email !== "" ? row.email : null,
    emailVerified: toDate(row.emailVerified),
    image: (row.image as string | null | undefined) ?? null,
  };
}

export function decodeSession(row: Row): AdapterSession {
  const session: AdapterSession = {
    sessionToken: String(row.sessionToken),
    userId: String(row.userId),
    expires: toDate(row.expires) as Date,
  };
  // Absent rather than null when unset, as an account's OAuth values.
  for (const column of [...SESSION_LINK_COLUMNS, "signInMethod", "device", "clientAddress"] as const) {
    const value = row[column];
    if (value !== null && value !== undefined) session[column] = String(value);
  }
  for (const column of ["createdAt", "lastSeenAt", "authTime"] as const) {
    const value = toDate(row[column]);
    if (value) session[column] = value;
  }
  if (typeof row.amr === "string" && row.amr) session.amr = row.amr.split(" ");
  return session;
}

export function decodeAccount(row: Row): AdapterAccount {
  const account: Row = {};
  for (const column of ACCOUNT_COLUMNS) {
    const value = row[column];
    if (value === null || value === undefined) continue;
    account[column] = column === "expires_at" ? toNumber(value) : value;
  }
  return account as AdapterAccount;
}

export function decodeVerificationToken(row: Row): VerificationToken {
  return { identifier: String(row.identifier), token: String(row.token), expires: toDate(row.expires) as Date };
}

export function decodeAuthenticator(row: Row): AdapterAuthenticator {
  return {
    credentialID: String(row.credentialID),
    userId: String(row.userId),
    providerAccountId: String(row.providerAccountId),
    credentialPublicKey: String(row.credentialPublicKey),
    counter: toNumber(row.counter),
    credentialDeviceType: String(row.credentialDeviceType),
    credentialBackedUp: toBoolean(row.credentialBackedUp),
    transports: (row.transports as string | null | undefined) ?? null,
  };
}
