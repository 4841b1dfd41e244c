/** Dangerous overrides are symbols, so they cannot be set by accident from untyped input. */

/** Set `skipCSRFCheck: skipCSRFCheck` to turn the CSRF check off (only for frameworks that do their own). */
export const skipCSRFCheck: unique symbol = Symbol("appauth.skip-csrf-check");

/** A provider's `[customFetch]` replaces `fetch` for every call to that provider's endpoints. */
export const customFetch: unique symbol = Symbol("appauth.custom-fetch");

/**
 * Set by a provider factory whose result already has the user's options merged over its defaults
 * (the catalog's factories): the runtime then does not lay the raw options over it a second time.
 */
export const optionsMerged: unique symbol = Symbol("appauth.options-merged");

/**
 * Marks the default email sender (nodemailer over `server`): the runtime checks `server` and `from`
 * for it without importing the sender's module, so resolving a config (in middleware, on an edge
 * runtime) never reaches nodemailer.
 */
export const nodemailerSender: unique symbol = Symbol("appauth.nodemailer-sender");
