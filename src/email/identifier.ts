/**
 * The default `normalizeIdentifier` of email providers. It normalises first (NFKC, so a full-width
 * `＠` becomes `@`; trim; lowercase) and validates after, so what is validated is exactly what is
 * used: one plain `local@domain` address, no display name, quotes, comments, whitespace, commas,
 * angle brackets or control characters. The address a link is sent to is the address it signs in.
 */
import { EmailSignInError } from "../errors.js";

/** Local part: the dot-atom of RFC 5322 §3.2.3, nothing quoted; domain: LDH labels, at least two. */
const ADDRESS = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The longest address SMTP carries (RFC 5321 §4.5.3.1.3 path limit less the brackets). */
const MAX_LENGTH = 254;

export function normalizeEmail(raw: unknown): string {
  if (typeof raw !== "string") throw new EmailSignInError("An email address is required.");
  const address = raw.normalize("NFKC").trim().toLowerCase();
  const [local = ""] = address.split("@");
  if (address.length > MAX_LENGTH || local.length > 64 || !ADDRESS.test(address)) {
    throw new EmailSignInError("That is not one plain email address.");
  }
  return address;
}
