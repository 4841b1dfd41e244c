/**
 * Where the token refresh is imported from, held once loaded (issue 19: it brings oauth4webapi and
 * jose). The session flows take a loader as a parameter rather than importing this module, so a
 * session reader that never refreshes (appauth/next/middleware) bundles none of the refresh.
 */
import { lazy } from "../lazy.js";
import type * as TokenRefresh from "./token-refresh.js";

/** Loads the token refresh; a reader without one passes a loader that refuses (the refresh is then unavailable). */
export type TokenRefreshLoader = () => Promise<typeof TokenRefresh>;

/** The token refresh, imported the first time a refresh is due. */
export const loadTokenRefresh: TokenRefreshLoader = lazy(() => import("./token-refresh.js"));
