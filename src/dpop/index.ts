/**
 * appauth/dpop: calling resource servers with the DPoP-bound (RFC 9449) access token of the
 * signed-in person's account. Turn DPoP on per provider with `dpop: true`.
 */
export { fetchWithDPoP } from "./fetch.js";
export type { DPoPFetchInit, DPoPFetchResult } from "./fetch.js";
export { DPoPError } from "../errors.js";
export type { DPoPErrorCode } from "../errors.js";
export type { DPoPAlgorithm, DPoPOption } from "../oauth/dpop-options.js";
