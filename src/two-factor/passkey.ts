/**
 * A passkey as the second factor of a pending sign-in: an assertion from one of that user's own
 * authenticators. The options name only their credentials (`allowCredentials`), prefer user
 * verification (a security key without a PIN is still something the person has), and carry a
 * challenge recorded in the store under a keyed hash of the pending sign-in's id and the challenge:
 * it works once, and only for the pending sign-in it was minted for (the id is inside the encrypted
 * pending cookie). The answer is verified as a passkey sign-in's is (`verifyPasskeyAnswer`: signature,
 * origin, RP ID, challenge, a counter that must not go back), and the counter is stored.
 *
 * The relying party is the first configured WebAuthn provider's. A sign-in whose first factor was a
 * passkey is not offered one again (with `passkeyCountsAsBoth: false` a second passkey would prove the
 * same kind of thing twice).
 */
import type { Runtime } from "../config/runtime.js";
import { hashToken } from "../email/token.js";
import { WebAuthnVerificationError } from "../errors.js";
import { credentialIdLookups } from "../flows/credential-id.js";
import { passkeyDescriptors, passkeyRequestOptions, verifyPasskeyAnswer } from "../flows/webauthn.js";
import type { CeremonyOptions } from "../../machines/webauthn.machine.js";
import type { RequestContext } from "../request-context.js";
import type { AdapterAuthenticator } from "../types.js";
import type { OpenedPendingSignIn } from "./pending.js";

/** What a first factor that was a passkey records (RFC 8176). */
const PASSKEY_METHODS = new Set(["hwk", "swk"]);

/** The user's passkeys that may answer this pending sign-in's challenge, and the provider that checks them; null for none. */
export async function challengePasskeys(
  rt: Runtime,
  pending: OpenedPendingSignIn,
): Promise<{ providerId: string; passkeys: AdapterAuthenticator[] } | null> {
  const provider = rt.providers.find((p) => p.type === "webauthn");
  const list = rt.adapter?.listAuthenticatorsByUserId;
  if (!provider || typeof list !== "function") return null;
  if (pending.input.twoFactor?.firstFactor.some((method) => PASSKEY_METHODS.has(method))) return null;
  const passkeys = await list.call(rt.adapter, pending.userId);
  return passkeys.length ? { providerId: provider.id, passkeys } : null;
}

function store(rt: Runtime) {
  // pending.ts refuses a configuration without these before any sign-in is held.
  return rt.adapter as Required<Pick<NonNullable<Runtime["adapter"]>, "createVerificationToken" | "useVerificationToken" | "updateAuthenticatorCounter">>;
}

async function challengeRecord(rt: Runtime, pending: OpenedPendingSignIn, challenge: string): Promise<{ identifier: string; token: string }> {
  return { identifier: "appauth:two-factor-passkey", token: await hashToken(`${pending.id}.${challenge}`, rt.secrets[0]!) };
}

/** Options for `navigator.credentials.get()`, their challenge recorded for this pending sign-in; null when no passkey can answer. */
export async function passkeyChallengeOptions(rt: Runtime, ctx: RequestContext, pending: OpenedPendingSignIn): Promise<CeremonyOptions | null> {
  const offered = await challengePasskeys(rt, pending);
  if (!offered) return null;
  const options = await passkeyRequestOptions(rt, {
    providerId: offered.providerId,
    origin: ctx.origin,
    allowCredentials: passkeyDescriptors(offered.passkeys),
    userVerification: "preferred",
  });
  await store(rt).createVerificationToken({ ...(await challengeRecord(rt, pending, options.challenge)), expires: new Date(pending.expires) });
  return options;
}

/**
 * Checks `posted` (the credential's JSON, as the page posts it) as the pending user's answer to a
 * challenge minted for this pending sign-in, using the challenge up. Resolves when it proves the
 * factor; throws `WebAuthnVerificationError` saying why not.
 */
export async function provePasskey(rt: Runtime, ctx: RequestContext, pending: OpenedPendingSignIn, posted: string): Promise<void> {
  const offered = await challengePasskeys(rt, pending);
  if (!offered) throw new WebAuthnVerificationError("No passkey of this user can answer this challenge.");
  let response: unknown;
  try {
    response = JSON.parse(posted);
  } catch {
    throw new WebAuthnVerificationError("The posted passkey answer is not JSON.");
  }
  const id = (response as { id?: unknown } | null)?.id;
  const lookups = typeof id === "string" ? credentialIdLookups(id) : [];
  // Only the user's own passkeys are candidates: another person's is not looked up at all.
  const passkey = offered.passkeys.find((p) => lookups.includes(p.credentialID));
  if (!passkey) throw new WebAuthnVerificationError("The passkey is not one of this user's.");
  const newCounter = await verifyPasskeyAnswer(rt, {
    providerId: offered.providerId,
    origin: ctx.origin,
    response,
    passkey,
    userVerification: "preferred",
    challenge: async (challenge) => {
      const used = await store(rt).useVerificationToken(await challengeRecord(rt, pending, challenge));
      return !!used && used.expires.valueOf() > Date.now();
    },
  });
  await store(rt).updateAuthenticatorCounter(passkey.credentialID, newCounter);
}
