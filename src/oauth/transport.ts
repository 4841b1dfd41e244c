/**
 * The transport rule of every provider endpoint: https everywhere, plain http only on loopback
 * hosts. Apart from the OAuth client (oauth4webapi) because resolving a configuration checks it too,
 * and that must not load the protocol libraries on every cold start (issue 19).
 */
import { InvalidEndpoints } from "../errors.js";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

export function isLoopback(url: URL): boolean {
  return LOOPBACK.has(url.hostname);
}

/** https everywhere; plain http only on loopback hosts (development and tests). */
export function checkTransport(url: string, what: string, providerId: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidEndpoints(`providers (${providerId}): ${what} "${url}" is not an absolute URL.`);
  }
  if (parsed.protocol === "https:" || (parsed.protocol === "http:" && isLoopback(parsed))) return parsed;
  throw new InvalidEndpoints(
    `providers (${providerId}): ${what} must use https (plain http is allowed on localhost, 127.0.0.1 and [::1] only): ${url}`,
  );
}
