/**
 * Passkey tests without a browser: a configuration with an in-memory store and the `Passkey()`
 * provider, and a browser-like client that does what the sign-in page's script does (ask for
 * options, answer with a software authenticator, post the form).
 */
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { MemoryAdapter, type MemoryAdapterInstance } from "../../../src/adapters/memory/index.js";
import { Passkey } from "../../../src/providers/webauthn.js";
import type { AuthConfig } from "../../../src/types.js";
import { ORIGIN, SESSION_COOKIE, testConfig, type TestConfig } from "../../helpers/config.js";
import { TestClient } from "../../helpers/test-client.js";
import { SoftAuthenticator, type SoftAuthenticatorOptions } from "./soft-authenticator.js";

export { ORIGIN, SESSION_COOKIE };
export const CHALLENGE_COOKIE = "appauth.challenge";

export type PasskeyConfig = TestConfig & { adapter: MemoryAdapterInstance };

/** Passkeys on, an in-memory store, and whatever else `overrides` adds. */
export function passkeyConfig(overrides: Partial<AuthConfig> = {}): PasskeyConfig {
  return testConfig({
    adapter: MemoryAdapter(),
    experimental: { enableWebAuthn: true },
    providers: [Passkey()],
    ...overrides,
  }) as PasskeyConfig;
}

/** Every adapter method that writes, so a test can say nothing was written. */
const WRITES = [
  "createUser",
  "updateUser",
  "deleteUser",
  "linkAccount",
  "createUserAndLinkAccount",
  "createSession",
  "createVerificationToken",
  "useVerificationToken",
  "createAuthenticator",
  "updateAuthenticatorCounter",
] as const;

/** The adapter of `config`, wrapped so that every write through it is recorded by name. */
export function recordWrites(config: PasskeyConfig): string[] {
  const writes: string[] = [];
  const adapter = config.adapter as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of WRITES) {
    const original = adapter[name]!;
    adapter[name] = (...args: unknown[]) => {
      writes.push(name);
      return original(...args);
    };
  }
  return writes;
}

export function softAuthenticator(
  options: Partial<SoftAuthenticatorOptions> & { credentialId?: Uint8Array } = {},
): Promise<SoftAuthenticator> {
  return SoftAuthenticator.create({ origin: ORIGIN, ...options });
}

export type OptionsAnswer =
  | { action: "register"; options: PublicKeyCredentialCreationOptionsJSON }
  | { action: "authenticate"; options: PublicKeyCredentialRequestOptionsJSON };

/** A browser for the passkey routes: a TestClient with the sign-in page's steps as methods. */
export class PasskeyClient extends TestClient {
  /** GET /webauthn-options/:provider, parsed; fails the test on anything but 200. */
  async options(query: { email?: string; action?: string } = {}, providerId = "passkey"): Promise<OptionsAnswer> {
    const params = new URLSearchParams(query as Record<string, string>);
    const response = await this.get(`/webauthn-options/${providerId}${params.size ? `?${params}` : ""}`);
    if (response.status !== 200) throw new Error(`options: ${response.status} ${await response.text()}`);
    return (await response.json()) as OptionsAnswer;
  }

  /** POST /callback/:provider as the page's script does: csrfToken, action, data (JSON), callbackUrl. */
  async answer(
    action: string,
    credential: RegistrationResponseJSON | AuthenticationResponseJSON | string,
    options: { providerId?: string; callbackUrl?: string } = {},
  ): Promise<Response> {
    const csrfToken = await this.csrf();
    return this.post(`/callback/${options.providerId ?? "passkey"}`, {
      csrfToken,
      action,
      data: typeof credential === "string" ? credential : JSON.stringify(credential),
      callbackUrl: options.callbackUrl ?? `${ORIGIN}/dashboard`,
    });
  }

  /** Registers `authenticator` for `email` (options, ceremony, post): the callback's response. */
  async register(authenticator: SoftAuthenticator, email?: string): Promise<Response> {
    const answer = await this.options({ ...(email ? { email } : {}), action: "register" });
    if (answer.action !== "register") throw new Error(`expected register options, got ${answer.action}`);
    return this.answer("register", await authenticator.register(answer.options));
  }

  /** Signs in with `authenticator` (options without an email, ceremony, post): the callback's response. */
  async authenticate(authenticator: SoftAuthenticator): Promise<Response> {
    const answer = await this.options({ action: "authenticate" });
    if (answer.action !== "authenticate") throw new Error(`expected authenticate options, got ${answer.action}`);
    return this.answer("authenticate", await authenticator.authenticate(answer.options));
  }

  /** The signed-in user's email, or null. */
  async signedInAs(): Promise<string | null> {
    const session = (await this.session()) as { user?: { email?: string } } | null;
    return session?.user?.email ?? null;
  }
}

/** Where a redirect goes, and its `error` parameter. */
export function redirectOf(response: Response): { url: URL; error: string | null } {
  const url = new URL(response.headers.get("location") ?? "about:blank");
  return { url, error: url.searchParams.get("error") };
}
