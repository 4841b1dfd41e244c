/**
 * A world with Ada, who signs in with a password and has an authenticator app (and two recovery
 * codes) enrolled, for the tests of what a second factor guards: the step-up and the walk over the
 * session-issuing routes. The adapter is given (memory by default), so a test can run over any store.
 */
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { encode } from "../../../src/jwt/index.js";
import type { TwoFactorAdapter } from "../../../src/adapters/extensions.js";
import { generateRecoveryCodes, hashRecoveryCode } from "../../../src/two-factor/recovery-codes.js";
import { sealSecret } from "../../../src/two-factor/secret-box.js";
import { generateTotp, generateTotpSecret } from "../../../src/two-factor/totp.js";
import type { Adapter, AuthConfig } from "../../../src/types.js";
import { ADA, ADA_PASSWORD, ADA_USERNAME, SECRET, testConfig } from "../../helpers/config.js";
import type { TestClient } from "../../helpers/test-client.js";

export type TwoFactorStore = Adapter & TwoFactorAdapter;

/** Gives `userId` an active authenticator app with `totpSecret`, and the hashed `recoveryCodes`. */
export async function enrollFactor(adapter: TwoFactorStore, userId: string, totpSecret: string, recoveryCodes: readonly string[]): Promise<void> {
  const secret = await sealSecret(totpSecret, SECRET);
  await adapter.createTwoFactor({ id: `app-${userId}`, userId, type: "totp", createdAt: new Date(), secret, lastUsedStep: -1, active: true });
  const hashes = await Promise.all(recoveryCodes.map((code) => hashRecoveryCode(code, SECRET)));
  await adapter.replaceRecoveryCodes(userId, hashes.map((hash) => hash!));
}

export interface EnrolledWorld {
  adapter: TwoFactorStore;
  totpSecret: string;
  recoveryCodes: string[];
  /** The current code of Ada's app. */
  code(): Promise<string>;
  /** The test configuration over `adapter`, with `twoFactor` on and what `overrides` adds. */
  config(overrides?: Partial<AuthConfig>): AuthConfig;
}

/** Ada (verified address), enrolled unless `enrolled: false`, in `adapter` (default: a new memory adapter). */
export async function enrolledAdaWorld(options: { adapter?: TwoFactorStore; enrolled?: boolean } = {}): Promise<EnrolledWorld> {
  const adapter = options.adapter ?? (MemoryAdapter() as unknown as TwoFactorStore);
  await adapter.createUser!({ ...ADA, emailVerified: new Date() });
  const totpSecret = generateTotpSecret();
  const recoveryCodes = generateRecoveryCodes(2);
  if (options.enrolled !== false) await enrollFactor(adapter, ADA.id, totpSecret, recoveryCodes);
  return {
    adapter,
    totpSecret,
    recoveryCodes,
    code: () => generateTotp(totpSecret, Date.now()),
    config: (overrides = {}) => testConfig({ adapter, twoFactor: {}, ...overrides }),
  };
}

/** Signs Ada in with her password and, when challenged, her current code: the browser then holds her session. */
export async function signInWithCode(browser: TestClient, world: EnrolledWorld): Promise<void> {
  const answer = await browser.signIn(ADA_USERNAME, ADA_PASSWORD);
  if (!answer.headers.get("location")?.includes("/two-factor-challenge")) return;
  await browser.post("/two-factor-challenge", { csrfToken: await browser.csrf(), code: await world.code() });
}

/** A JWT session cookie's value for Ada (secret and cookie of the test config), saying she proved `amr` `secondsAgo` seconds ago. */
export function provedSession(amr: string[], secondsAgo: number, cookieName = "appauth.session-token"): Promise<string> {
  const token = { sub: ADA.id, email: ADA.email, name: ADA.name, amr, auth_time: Math.floor(Date.now() / 1000) - secondsAgo };
  return encode({ token, secret: SECRET, salt: cookieName });
}
