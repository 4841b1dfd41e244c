/**
 * What the limiter counts a password attempt by: the one field the provider names as its account
 * identifier, chosen by the application, never by the request. An attempt whose fields are not all
 * single strings, or whose identifier is missing, is malformed: it is counted against its client
 * address and refused without `authorize` ever seeing it, so no shape of a request buys a check
 * that the documented budgets do not count.
 */
import type { CredentialsConfig } from "../types.js";
import { foldIdentifier } from "./identifier.js";

/** Field names that hold a secret, not a name: never an identifier, whatever their declared type. */
const SECRET_NAME = /pass|pwd|secret|otp|pin|code|token|mfa|2fa|answer/i;

/**
 * The provider's identifier field: its `identifier` option, else the first declared field that is
 * not a secret (type `password`, or a name such as `password`, `otp`, `pin`, `code`, `token`).
 */
export function identifierField(provider: CredentialsConfig): string | undefined {
  if (typeof provider.identifier === "string" && provider.identifier) return provider.identifier;
  for (const [name, input] of Object.entries(provider.credentials ?? {})) {
    if (input?.type !== "password" && !SECRET_NAME.test(name)) return name;
  }
  return undefined;
}

/** An attempt as counted: its folded identifier, or none when the attempt is malformed. */
export interface CountedAttempt {
  identifier?: string;
  malformed: boolean;
}

/**
 * Reads an attempt: every field a single string (a JSON array, number or object, or a form field
 * sent twice, is malformed), and a non-blank identifier in the provider's identifier field.
 */
export function countedAttempt(
  provider: CredentialsConfig,
  credentials: Record<string, unknown>,
  repeated: (name: string) => boolean = () => false,
): CountedAttempt {
  for (const [name, value] of Object.entries(credentials)) {
    if (typeof value !== "string" || repeated(name)) return { malformed: true };
  }
  const field = identifierField(provider);
  // A provider that names no identifier is only possible with password limits off (the
  // configuration check asks for one otherwise): nothing to count, nothing missing.
  if (field === undefined) return { malformed: false };
  const value = credentials[field];
  if (typeof value !== "string") return { malformed: true };
  const identifier = foldIdentifier(value);
  return identifier ? { identifier, malformed: false } : { malformed: true };
}
