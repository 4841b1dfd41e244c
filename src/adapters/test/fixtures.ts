/**
 * Sample records for the conformance suite. Every call returns fresh, unique values, so tests can share
 * one store (and run against a database that other tests also write to) without colliding.
 */
import type {
  AdapterAccount,
  AdapterAuthenticator,
  AdapterSession,
  AdapterUser,
  VerificationToken,
} from "../../types.js";

const DAY = 24 * 60 * 60 * 1000;

/** A short random suffix that keeps emails, tokens and ids unique across tests and runs. */
export function unique(): string {
  return globalThis.crypto.randomUUID().replaceAll("-", "").slice(0, 16);
}

/** A Date `days` from now, with milliseconds, so a store that truncates them is still checked to the second. */
export function daysFromNow(days: number): Date {
  return new Date(Date.now() + days * DAY);
}

export function sampleUser(overrides: Partial<AdapterUser> = {}): AdapterUser {
  const id = unique();
  return {
    id: globalThis.crypto.randomUUID(),
    name: `Ada ${id}`,
    email: `ada.${id}@example.com`,
    image: `https://example.com/avatars/${id}.png`,
    emailVerified: new Date("2024-05-06T07:08:09.123Z"),
    ...overrides,
  };
}

export function sampleAccount(userId: string, overrides: Partial<AdapterAccount> = {}): AdapterAccount {
  return {
    userId,
    type: "oidc",
    provider: "example-oidc",
    providerAccountId: `sub-${unique()}`,
    access_token: `at-${unique()}`,
    refresh_token: `rt-${unique()}`,
    expires_at: Math.floor(Date.now() / 1000) + 3600,
    token_type: "bearer",
    scope: "openid email profile",
    id_token: `eyJhbGciOiJSUzI1NiJ9.${unique()}.${unique()}`,
    session_state: `ss-${unique()}`,
    ...overrides,
  };
}

export function sampleSession(userId: string, overrides: Partial<AdapterSession> = {}): AdapterSession {
  return { sessionToken: `st-${unique()}`, userId, expires: daysFromNow(30), ...overrides };
}

export function sampleToken(overrides: Partial<VerificationToken> = {}): VerificationToken {
  return {
    identifier: `ada.${unique()}@example.com`,
    // The core stores a hash of the emailed token; a hex digest is what adapters really see.
    token: `${unique()}${unique()}${unique()}${unique()}`,
    expires: daysFromNow(1),
    ...overrides,
  };
}

/**
 * A credential id as the core stores it: standard, padded base64 (the spec's form, and Auth.js's) of
 * 32 random bytes, led by bytes that spell `+` and `/`, so every sample carries the characters a
 * store might mangle: `+`, `/` and a trailing `=`.
 */
export function sampleCredentialId(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(32));
  bytes.set([0xfb, 0xff]);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

export function sampleAuthenticator(
  userId: string,
  overrides: Partial<AdapterAuthenticator> = {},
): AdapterAuthenticator {
  return {
    credentialID: sampleCredentialId(),
    credentialPublicKey: "pQECAyYgASFYIFtR2Wgr2xWQAHRm3a3u5i4zBrm0rX3Kn7rM8sSlwFXPIlggyT1E3FS0Rb1BsTQ2",
    counter: 0,
    credentialDeviceType: "multiDevice",
    credentialBackedUp: true,
    transports: "internal,hybrid",
    providerAccountId: `cred-owner-${unique()}`,
    userId,
    ...overrides,
  };
}
