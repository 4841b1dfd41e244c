// SolidStart 1.x on vinxi. `appauth` is linked from the repository (`file:../..`), so its imports
// of solid-js must resolve to this app's copy: one Solid runtime on the page and on the server.
import { defineConfig } from "@solidjs/start/config";

export default defineConfig({
  middleware: "src/middleware.ts",
  // Node 20 runs ES2022: BigInt literals (in the WebAuthn and JOSE code) stay as they are.
  server: { preset: "node-server", esbuild: { options: { target: "es2022" } } },
  vite: {
    resolve: { dedupe: ["solid-js"] },
    // Node-only drivers stay outside the server bundle.
    ssr: { external: ["better-sqlite3", "kysely", "nodemailer"] },
  },
});
