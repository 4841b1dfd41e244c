/**
 * The fresh SolidStart 1.3 app (vinxi, the starter's scripts and versions; app/tsconfig.json is what
 * `npm create solid` writes for SolidStart v1, app/app.config.ts its `defineConfig({})` with the
 * guide's middleware) and how its built server starts: shared by the fresh-app test (fresh-solid.e2e.test.ts) and the guide's (guide-solid.e2e.test.ts).
 */
import { fileURLToPath } from "node:url";
import type { FreshAppSpec, ServerCommand } from "../fresh-next/harness.js";

export const SOLID_APP: FreshAppSpec = {
  name: "solidstart13",
  template: fileURLToPath(new URL("./app/", import.meta.url)),
  manifest: { type: "module" },
  scripts: { dev: "vinxi dev", build: "vinxi build", start: "vinxi start" },
  dependencies: { "@solidjs/start": "1.3.2", "@solidjs/router": "0.15.4", "solid-js": "1.9.19", vinxi: "0.5.11" },
  devDependencies: {},
};

/** The built server (`npm start`, which runs `vinxi start`: .output/server/index.mjs), on the port the harness picks. */
export const SOLID_SERVER: ServerCommand = {
  name: "the SolidStart server",
  args: () => [".output/server/index.mjs"],
  env: { NODE_ENV: "production", AUTH_SECRET: crypto.randomUUID() + crypto.randomUUID() },
  ready: "/api/auth/providers",
  portVariable: "PORT",
};
