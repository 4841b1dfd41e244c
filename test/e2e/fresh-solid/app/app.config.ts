// The starter's app.config.ts (`npm create solid`, SolidStart v1 "basic": `defineConfig({})`) with
// the middleware the guide adds, nothing else.
import { defineConfig } from "@solidjs/start/config";

export default defineConfig({ middleware: "src/middleware.ts" });
