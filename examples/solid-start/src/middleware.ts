// Every request: `event.locals.auth()` reads the session when something asks (once per request),
// and /protected is guarded on full page loads. Client-side navigations are guarded by the
// route's own `requireSession` query (src/routes/protected.tsx).
import { createMiddleware } from "@solidjs/start/middleware";
import { auth } from "./lib/auth";

export default createMiddleware({ onRequest: [auth.middleware({ protect: ["/protected"] })] });
