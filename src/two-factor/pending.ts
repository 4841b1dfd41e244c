/**
 * The pending sign-in: what the sign-in completion needs to resume once the second factor is proved,
 * carried by the browser in a cookie that is encrypted with the secret (JWE, the session's scheme),
 * versioned, scoped to the auth routes and alive five minutes. The cookie itself binds the sign-in to
 * that browser; the user and the first factor are inside it. Single use is enforced by the store: a
 * verification token (a keyed hash of the pending id) is written when the challenge starts and used up,
 * atomically, by the one request that passes it — a replayed cookie finds nothing to use.
 *
 * What is carried is the completion's input without what only its first run needed: the typed
 * credentials never (the signIn callback is not asked again) and the request's facts (the resuming
 * request brings its own). An OAuth account with large tokens and profile makes a large cookie: it is
 * split into chunks like the session cookie rather than trimmed, so the resumed sign-in links and keeps
 * exactly what the provider gave.
 *
 * A pending sign-in that leads to enrollment (`twoFactor.required`) also carries the new authenticator
 * app's secret, sealed: the enrollment page shows it, the confirming code is checked against it, and
 * only the resumed sign-in stores it as the user's factor (nothing is stored for an abandoned one).
 */
import type { PendingSignIn, SignInCompletionInput } from "../../machines/signin-completion.machine.js";
import type { Runtime } from "../config/runtime.js";
import { clearChunkedCookie, readChunkedCookie, writeChunkedCookie, type SetCookie } from "../cookies.js";
import { hashToken } from "../email/token.js";
import { MissingAdapterMethods } from "../errors.js";
import { decode, encode } from "../jwt/index.js";
import type { RequestContext } from "../request-context.js";
import { encodeBase64url } from "../jwt/base64url.js";
import { sealSecret } from "./secret-box.js";
import { generateTotpSecret } from "./totp.js";

/** Format version of the cookie's content. */
const VERSION = 1;
/** How long a pending sign-in waits for its second factor, in seconds. */
export const PENDING_MAX_AGE = 5 * 60;

/** The pending sign-in as the challenge route reads it back. */
export interface OpenedPendingSignIn {
  id: string;
  userId: string;
  /** The completion's input, without its request facts (the resuming request adds its own). */
  input: Omit<SignInCompletionInput, "request">;
  /** When it stops working, epoch milliseconds. */
  expires: number;
  /** A sign-in led to enrollment: the new authenticator app's secret, sealed with the configured secret. */
  enrollSecret?: string;
}

function storeRecord(rt: Runtime, id: string): Promise<{ identifier: string; token: string }> {
  return hashToken(id, rt.secrets[0]!).then((token) => ({ identifier: "appauth:two-factor-pending", token }));
}

function adapterOf(rt: Runtime) {
  const adapter = rt.adapter;
  if (typeof adapter?.createVerificationToken !== "function" || typeof adapter.useVerificationToken !== "function") {
    throw new MissingAdapterMethods("twoFactor: the pending sign-in is made single use through createVerificationToken and useVerificationToken.");
  }
  return adapter as Required<Pick<NonNullable<Runtime["adapter"]>, "createVerificationToken" | "useVerificationToken">>;
}

/** Seals `pending` into its cookie and records its id as usable once; `now` in epoch milliseconds. */
export async function holdPendingSignIn(rt: Runtime, ctx: RequestContext, pending: PendingSignIn, now = Date.now()): Promise<SetCookie[]> {
  const id = encodeBase64url(crypto.getRandomValues(new Uint8Array(18)));
  const { credentials: _typed, request: _request, ...input } = pending.input;
  const expires = now + PENDING_MAX_AGE * 1000;
  await adapterOf(rt).createVerificationToken({ ...(await storeRecord(rt, id)), expires: new Date(expires) });
  const cookie = ctx.cookies.twoFactorPending;
  const enrolling = pending.enroll ? { enr: await sealSecret(generateTotpSecret(), rt.secrets) } : {};
  const token = { v: VERSION, id, uid: pending.userId, input, until: expires, ...enrolling };
  const sealed = await encode({ token, secret: rt.secrets, salt: cookie.name, maxAge: PENDING_MAX_AGE });
  return writeChunkedCookie(ctx.jar, cookie.name, sealed, { ...cookie.options, maxAge: PENDING_MAX_AGE, expires: new Date(expires) });
}

/**
 * The pending sign-in this browser carries, still within its five minutes at `now`; `null` for none,
 * a tampered or expired one, or one of another version. Reading it does not use it up (`usePendingSignIn`).
 */
export async function readPendingSignIn(rt: Runtime, ctx: RequestContext, now = Date.now()): Promise<OpenedPendingSignIn | null> {
  const raw = readChunkedCookie(ctx.jar, ctx.cookies.twoFactorPending.name);
  if (!raw) return null;
  const payload = await decode<{ v?: unknown; id?: unknown; uid?: unknown; input?: unknown; until?: unknown; enr?: unknown }>({
    token: raw,
    secret: rt.secrets,
    salt: ctx.cookies.twoFactorPending.name,
  }).catch(() => null);
  if (!payload || payload.v !== VERSION) return null;
  const { id, uid, input, until, enr } = payload;
  if (typeof id !== "string" || typeof uid !== "string" || typeof until !== "number" || typeof input !== "object" || input === null) return null;
  // The JWT's own expiry is checked with the library's clock tolerance; the pending sign-in's is exact.
  if (until <= now) return null;
  if (enr !== undefined && typeof enr !== "string") return null;
  return { id, userId: uid, input: input as OpenedPendingSignIn["input"], expires: until, ...(enr ? { enrollSecret: enr } : {}) };
}

/** Uses the pending sign-in up: `true` for the one request that does, `false` for any replay. */
export async function usePendingSignIn(rt: Runtime, pending: OpenedPendingSignIn): Promise<boolean> {
  const used = await adapterOf(rt).useVerificationToken(await storeRecord(rt, pending.id));
  return used !== null && used !== undefined;
}

/** The cookies that clear the pending sign-in. */
export function clearPendingSignIn(ctx: RequestContext): SetCookie[] {
  return clearChunkedCookie(ctx.jar, ctx.cookies.twoFactorPending.name, ctx.cookies.twoFactorPending.options);
}
