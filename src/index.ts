/**
 * appauth: sign-in and sessions for web applications, every flow an explicit state machine.
 * `Auth(request, config)` serves every route under the base path; see DESIGN.md §4 for the protocol.
 */
export { Auth } from "./handler.js";
export { setEnvDefaults } from "./config/env.js";
export { skipCSRFCheck, customFetch } from "./symbols.js";
export * from "./errors.js";
export type * from "./types.js";
export { setClientAddress } from "./rate-limit/client-address.js";
export { memoryRateLimitStore } from "./rate-limit/store.js";
export type { RateLimitStore, RateLimitHit } from "./rate-limit/store.js";
export type { RateLimitOptions } from "./rate-limit/options.js";
