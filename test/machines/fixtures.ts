/**
 * The request a machine test hands to its machine. Machines only pass the request context through to
 * their effects, so one realistic, fixed context is enough; tests compare it by identity.
 */
import { defaultCookies } from "../../src/cookies.js";
import type { AuthAction, RequestContext } from "../../src/request-context.js";

export function requestContext(action: AuthAction, method: "GET" | "POST" = "POST"): RequestContext {
  const origin = "https://app.example";
  const url = new URL(`${origin}/auth/${action}`);
  return {
    request: new Request(url, { method }),
    method,
    action,
    url,
    origin,
    baseUrl: `${origin}/auth`,
    query: url.searchParams,
    body: {},
    jar: new Map(),
    cookies: defaultCookies(true),
    secure: true,
    returnRedirect: false,
  };
}
