/**
 * Next's own modules, imported when a code path needs them rather than up front. Bundlers (webpack,
 * Turbopack) resolve these bare names to the modules of the running layer — Turbopack resolves only
 * the bare names. Node's own loader, which loads this package for the pages router, resolves no
 * extensionless `next/...` name; the pages router's paths (`auth(req, res)`, `auth(context)`) need
 * none of these, so they work there too, and `next/headers` is not a static import of a page.
 */
import type * as NextHeaders from "next/headers";
import type * as NextNavigation from "next/navigation";
import type * as NextServer from "next/server";

import { lazy } from "../../src/lazy.js";

// Held once loaded: `auth()` asks for `next/headers` on every call, and a repeated `import()` still
// resolves its specifier (a loader round trip wherever loader hooks run).
export const nextServer: () => Promise<typeof NextServer> = lazy(() => import("next/server"));
export const nextHeaders: () => Promise<typeof NextHeaders> = lazy(() => import("next/headers"));
export const nextNavigation: () => Promise<typeof NextNavigation> = lazy(() => import("next/navigation"));
