// The docs' app.config.ts: the middleware, nothing else.
import { defineConfig } from "@solidjs/start/config";

export default defineConfig({ middleware: "src/middleware.ts" });
