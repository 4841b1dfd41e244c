/**
 * Calling a resource server with the DPoP-bound access token of the signed-in person's account
 * (RFC 9449 §7). The session is read first, as `auth()` reads it — so a token that is due is
 * refreshed (with a proof of the same key) and the cookies that carry it are handed back — then
 * every attempt gets a fresh proof (new `jti`, `htm`/`htu` of this request, `ath` of this token),
 * and a resource server's `use_dpop_nonce` is retried once with the nonce it named.
 */
import * as oauth from "oauth4webapi";
import type { Runtime } from "../config/runtime.js";
import type { CookieJar, SetCookie } from "../cookies.js";
import { DPoPError } from "../errors.js";
import { clientOf, checkTransport, httpOptions } from "../oauth/client.js";
import { dpopHandle, openDPoPKey } from "../oauth/dpop.js";
import { oauthProvider } from "../flows/oauth.js";
import { readSessionOf } from "../server/session.js";
import { sessionContext, sessionRequestOf } from "../server/session-read.js";
import { runtimeOf } from "../server/runtime.js";
import { decodeSessionToken, readSessionCookie } from "../session/jwt-session.js";
import { loadDatabaseSession, requireAdapter } from "../session/database-session.js";
import type { AuthConfigInput, SessionAccount } from "../types.js";

/** The request to the resource server: fetch's options, with a body that can be sent twice (a nonce retry). */
export interface DPoPFetchInit {
  /** Default `GET`. */
  method?: string;
  /** Headers of the request; `Authorization` and `DPoP` are set by the helper. */
  headers?: HeadersInit;
  /** The request's body: one that can be sent again (no stream), for the nonce retry. */
  body?: string | URLSearchParams | Uint8Array | ArrayBuffer | null;
  /** The provider whose token to use, when a session could hold another's (default: the session's account). */
  provider?: string;
}

export interface DPoPFetchResult {
  /** The resource server's answer (a refusal other than `use_dpop_nonce` included: it is the application's to read). */
  response: Response;
  /**
   * Cookies the session read wrote (a JWT session re-issued with refreshed tokens, say). Pass them
   * on to the browser where the framework allows it, as with `readSession`.
   */
  cookies: SetCookie[];
}

type BoundAccount = SessionAccount & { access_token: string; dpop_jwk: string };

/**
 * Calls `resource` with the DPoP-bound access token of the session's account. Throws a `DPoPError`
 * when there is no signed-in session with such an account (`no_bound_account`), its key cannot be
 * opened (`key_unavailable`), or the resource server asks for a nonce a second time (`use_dpop_nonce`).
 *
 * ```ts
 * const { response, cookies } = await fetchWithDPoP(request, config, "https://api.example/accounts");
 * ```
 *
 * @see https://www.rfc-editor.org/rfc/rfc9449.html#section-7
 */
export async function fetchWithDPoP(
  request: Request,
  config: AuthConfigInput,
  resource: string | URL,
  init: DPoPFetchInit = {},
): Promise<DPoPFetchResult> {
  const rt = await runtimeOf(request, config);
  const read = await readSessionOf(rt, sessionRequestOf(request), config);
  if (!read.session) throw new DPoPError("no_bound_account", "No signed-in session to call the resource server for.");
  const account = await boundAccountOf(rt, request, read.cookies, init.provider);
  const provider = oauthProvider(rt, account.provider);
  const url = checkTransport(String(resource), "resource", provider.id);
  const key = await openDPoPKey(rt, account.dpop_jwk);
  // One handle per call: it learns the resource server's nonce from the first answer; every proof it makes is new.
  const handle = dpopHandle(clientOf(provider), key);
  const send = () =>
    oauth.protectedResourceRequest(account.access_token, init.method ?? "GET", url, new Headers(init.headers), init.body ?? null, {
      ...(httpOptions(provider, url.href) as oauth.ProtectedResourceRequestOptions),
      DPoP: handle,
    });
  for (let attempt = 0; ; attempt++) {
    try {
      return { response: await send(), cookies: read.cookies };
    } catch (error) {
      if (!(error instanceof oauth.WWWAuthenticateChallengeError)) throw error;
      if (!oauth.isDPoPNonceError(error)) return { response: error.response, cookies: read.cookies };
      if (attempt > 0 || !error.response.headers.get("dpop-nonce")) {
        throw new DPoPError("use_dpop_nonce", `The resource server ${url.origin} asked for a DPoP nonce again after the retry with the one it gave.`, {
          cause: error,
        });
      }
    }
  }
}

/** The session's account with a DPoP-bound access token and its key, as the read just left it. */
async function boundAccountOf(rt: Runtime, request: Request, written: SetCookie[], providerId: string | undefined): Promise<BoundAccount> {
  // The read may have re-issued the session (refreshed tokens): read what it wrote, not what came.
  const facts = sessionRequestOf(request);
  const jar = jarAfter(facts.cookies, written);
  const ctx = sessionContext(rt, { ...facts, cookies: jar });
  const token = readSessionCookie(rt, ctx);
  let account: Partial<SessionAccount> & Record<string, unknown> | undefined;
  if (token && rt.session.strategy === "database") {
    const found = await loadDatabaseSession(rt, token, Date.now());
    const { provider, providerAccountId } = found?.session ?? {};
    if (found && provider && providerAccountId) {
      const stored = await requireAdapter(rt).getAccount?.(providerAccountId, provider);
      // Someone else's account is never a source of tokens.
      if (stored && String(stored.userId) === String(found.user.id)) account = stored as Partial<SessionAccount> & Record<string, unknown>;
    }
  } else if (token) {
    const opened = await decodeSessionToken(rt, ctx, token);
    account = opened?.payload.account as (Partial<SessionAccount> & Record<string, unknown>) | undefined;
  }
  const bound =
    account &&
    typeof account.provider === "string" &&
    (providerId === undefined || account.provider === providerId) &&
    rt.providerById.has(account.provider) &&
    typeof account.access_token === "string" &&
    typeof account.dpop_jwk === "string" &&
    String(account.token_type).toLowerCase() === "dpop";
  if (!bound) {
    throw new DPoPError("no_bound_account", `The session has no account${providerId ? ` of ${providerId}` : ""} with a DPoP-bound access token.`);
  }
  return account as BoundAccount;
}

/** The browser's cookies once it has taken `written`: set values replace, expired ones go. */
function jarAfter(jar: CookieJar, written: SetCookie[]): CookieJar {
  const next = new Map(jar);
  for (const cookie of written) {
    const expires = cookie.options?.expires;
    const gone = cookie.options?.maxAge === 0 || (expires instanceof Date && expires.valueOf() <= Date.now());
    if (gone) next.delete(cookie.name);
    else next.set(cookie.name, cookie.value);
  }
  return next;
}
