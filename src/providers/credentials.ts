/**
 * The credentials provider: sign-in with whatever the person types (username and password, a
 * one-time code, ...), checked by your `authorize`. It is posted to `/callback/:id` with the CSRF token.
 * `authorize` receives single strings only; attempts are rate limited per the account identifier,
 * the field `identifier` names (default: the first declared field that is not a secret).
 *
 * ```ts
 * Credentials({
 *   credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
 *   async authorize({ username, password }) {
 *     const user = await db.findUser(String(username));
 *     return user && (await verify(user.passwordHash, String(password))) ? user : null;
 *   },
 * })
 * ```
 */
import type { CredentialInput, CredentialsConfig } from "../types.js";

export type CredentialsOptions<C extends Record<string, CredentialInput>> = Partial<Omit<CredentialsConfig<C>, "type">> &
  Pick<CredentialsConfig<C>, "authorize">;

export default function Credentials<C extends Record<string, CredentialInput> = Record<string, CredentialInput>>(
  options: CredentialsOptions<C>,
): CredentialsConfig<C> {
  if (typeof options?.authorize !== "function") {
    throw new TypeError("Credentials(options): `options.authorize` must be a function.");
  }
  return {
    id: "credentials",
    name: "Credentials",
    credentials: {} as C,
    ...options,
    type: "credentials",
    options: options as CredentialsConfig<C>["options"],
  } as CredentialsConfig<C>;
}

export { Credentials };
export type { CredentialsConfig, CredentialInput };
