/**
 * The JWT session cookie: read (joined from its chunks), issued (encrypted, chunked when large)
 * and cleared. The cookie's name is the key-derivation salt, so a token minted for one cookie
 * never opens as another.
 */
import { clearChunkedCookie, readChunkedCookie, writeChunkedCookie, type SetCookie } from "../cookies.js";
import type { Runtime } from "../config/runtime.js";
import type { RequestContext } from "../request-context.js";
import type { Account, JWT, Profile, User } from "../types.js";
import { AccessDenied } from "../errors.js";
import { decodeLegacySessionToken, findLegacySessionCookie, type LegacySessionCookie } from "./legacy-session.js";
import { isRevoked, newSessionClaims, withSessionClaims } from "./revocation.js";
import { sessionAccountOf } from "./session-account.js";
import { isReadableJwt, isReadableSessionToken } from "./token-shape.js";
import { adoptedLegacyPayload, stillStandsForUser, UNVERIFIED_SIGN_IN_CLAIM, unverifiedSignInClaim } from "./unverified-sign-in.js";

/**
 * The Auth.js session cookie this request is to be signed in with: only when it carries none of
 * ours and the configuration accepts them.
 */
export function legacySessionOf(rt: Runtime, ctx: RequestContext): LegacySessionCookie | undefined {
  if (!rt.session.acceptAuthJsCookies || readChunkedCookie(ctx.jar, ctx.cookies.sessionToken.name) !== undefined) return undefined;
  return findLegacySessionCookie(ctx.jar);
}

/**
 * The session cookie's value: ours, or else an Auth.js one the configuration accepts. A value that
 * cannot be a token of the configured strategy is no session (token-shape.ts): nothing downstream —
 * adapter, decryption, log — ever sees it.
 */
export function readSessionCookie(rt: Runtime, ctx: RequestContext): string | undefined {
  const value = rawSessionCookie(rt, ctx);
  return value !== undefined && isReadableFor(rt, value) ? value : undefined;
}

/** Whether the request carries a session cookie that cannot be a token (it is cleared, like any invalid one). */
export function hasUnreadableSessionCookie(rt: Runtime, ctx: RequestContext): boolean {
  const value = rawSessionCookie(rt, ctx);
  return value !== undefined && !isReadableFor(rt, value);
}

function isReadableFor(rt: Runtime, value: string): boolean {
  return rt.session.strategy === "database" ? isReadableSessionToken(value) : isReadableJwt(value);
}

function rawSessionCookie(rt: Runtime, ctx: RequestContext): string | undefined {
  return readChunkedCookie(ctx.jar, ctx.cookies.sessionToken.name) ?? legacySessionOf(rt, ctx)?.value;
}

/** Expires the session cookie, and an Auth.js one that stood in for it. */
export function clearSessionCookies(rt: Runtime, ctx: RequestContext): SetCookie[] {
  const { name, options } = ctx.cookies.sessionToken;
  const legacy = legacySessionOf(rt, ctx);
  return [...clearChunkedCookie(ctx.jar, name, options), ...(legacy ? clearLegacySessionCookie(ctx, legacy) : [])];
}

/** Expires an Auth.js session cookie (and its chunks), with our attributes but its name. */
export function clearLegacySessionCookie(ctx: RequestContext, legacy: LegacySessionCookie): SetCookie[] {
  const { options } = ctx.cookies.sessionToken;
  return clearChunkedCookie(ctx.jar, legacy.name, { ...options, secure: options.secure || legacy.name.startsWith("__Secure-") });
}

/**
 * Opens the JWT session token. One that came from an Auth.js cookie opens with Auth.js's key
 * derivation and reports a secret index past our own, so the session flow re-issues it as ours.
 * A token issued while its user's address was unverified opens only while nobody has proved that
 * address since (see unverified-sign-in.ts), and only while its session is not revoked
 * (revocation.ts): otherwise it reads as no token.
 */
export async function decodeSessionToken(
  rt: Runtime,
  ctx: RequestContext,
  token: string,
): Promise<{ payload: JWT; secretIndex: number } | null> {
  const legacy = legacySessionOf(rt, ctx);
  if (legacy && legacy.value === token) {
    const opened = await decodeLegacySessionToken(legacy, rt.secrets);
    const payload = opened && (await adoptedLegacyPayload(rt, opened));
    return payload && !(await isRevoked(rt, payload)) ? { payload, secretIndex: rt.secrets.length } : null;
  }
  const opened = await rt.jwt.decode({ token, secret: rt.secrets, salt: ctx.cookies.sessionToken.name });
  if (!opened) return null;
  // Nearly every token carries no claim: decided here, without another await.
  if (opened.payload[UNVERIFIED_SIGN_IN_CLAIM] !== undefined && !(await stillStandsForUser(rt, opened.payload))) return null;
  // A revocation the cache knows of (nearly always: it is refreshed by the store's notices) costs no await.
  const revoked = isRevoked(rt, opened.payload);
  if (revoked === false) return opened;
  return revoked === true || (await revoked) ? null : opened;
}

/** Encrypts `token` into session cookies that expire with it. */
export async function encodeSessionCookies(
  rt: Runtime,
  ctx: RequestContext,
  token: JWT,
): Promise<{ cookies: SetCookie[]; expires: string }> {
  const { name, options } = ctx.cookies.sessionToken;
  const maxAge = rt.jwt.maxAge;
  // Every token names its session (revocation.ts); one from before session ids gets one now.
  const value = await rt.jwt.encode({ token: withSessionClaims(token), secret: rt.secrets, salt: name, maxAge });
  const expires = new Date(Date.now() + maxAge * 1000);
  return { cookies: writeChunkedCookie(ctx.jar, name, value, { ...options, expires }), expires: expires.toISOString() };
}

/**
 * Issues the session of a fresh sign-in: the token starts with name, email and picture, the `jwt`
 * callback (trigger `signIn`) shapes it, it gets a new session id, and it is encrypted into the
 * session cookie. A callback that returns `null` refuses the session.
 */
export async function issueJwtSession(
  rt: Runtime,
  ctx: RequestContext,
  params: {
    user: User;
    account: Account | null;
    profile?: Profile;
    isNewUser?: boolean;
    amr?: string[];
    /** Called with the token once it is issued (the person's session list records it: registry.ts). */
    issued?: (token: JWT) => Promise<void>;
  },
): Promise<SetCookie[]> {
  const { user } = params;
  const initial: JWT = { name: user.name, email: user.email, picture: user.image };
  if (user.id) initial.sub = String(user.id);
  // What this sign-in proved (RFC 8176) and when: only with a twoFactor configuration.
  if (params.amr) {
    initial.amr = params.amr;
    initial.auth_time = Math.floor(Date.now() / 1000);
  }
  const account = params.account ? sessionAccountOf(rt, params.account) : undefined;
  if (account) initial.account = account;
  const token = await rt.callbacks.jwt({
    token: initial,
    user,
    account: params.account,
    ...(params.profile ? { profile: params.profile } : {}),
    trigger: params.isNewUser ? "signUp" : "signIn",
    isNewUser: params.isNewUser ?? false,
  });
  if (!token || typeof token !== "object") throw new AccessDenied("The jwt callback returned no token at sign-in.");
  // After the callback, so the application's token cannot leave it out.
  const claimed = { ...token, ...unverifiedSignInClaim(rt, user, params.account), ...newSessionClaims() };
  const { cookies } = await encodeSessionCookies(rt, ctx, claimed);
  await params.issued?.(claimed);
  return cookies;
}
