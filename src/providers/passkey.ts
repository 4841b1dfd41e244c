/**
 * `appauth/providers/passkey`: the entry point Auth.js users import a passkey provider from. Its default
 * export is `Passkey` (id `passkey`); a default export of `WebAuthn` here would give the id `webauthn`,
 * which collides with a `WebAuthn()` listed beside it and misses the accounts Auth.js stored as `passkey`.
 */
import { Passkey } from "./webauthn.js";

export { Passkey, WebAuthn, type SimpleWebAuthn, type WebAuthnConfig, type WebAuthnUserConfig } from "./webauthn.js";
export default Passkey;
