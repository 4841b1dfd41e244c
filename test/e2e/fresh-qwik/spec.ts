/**
 * The fresh Qwik City app as `npm create qwik@1.20.1 empty` and `qwik add node-server` make it
 * (their build scripts and the starter's pinned tools; app/vite.config.ts, tsconfig.json and
 * qwik.env.d.ts are the starter's own, with vite-tsconfig-paths for the `~/` alias; left out are its
 * prettier, eslint plugins and the editor-only typescript-plugin-css-modules), and how its built
 * server starts: shared by the fresh-app test (fresh-qwik.e2e.test.ts) and the guide's
 * (guide-qwik.e2e.test.ts).
 */
import { fileURLToPath } from "node:url";
import type { FreshAppSpec, ServerCommand } from "../fresh-next/harness.js";

export const QWIK_APP: FreshAppSpec = {
  name: "qwik120",
  template: fileURLToPath(new URL("./app/", import.meta.url)),
  manifest: { type: "module" },
  // Without prettier and the lint step; the starter's TypeScript checks our types.
  scripts: {
    build: "qwik build",
    "build.client": "vite build",
    "build.server": "vite build -c adapters/node-server/vite.config.ts",
    "build.types": "tsc --incremental --noEmit",
    serve: "node server/entry.node-server",
  },
  dependencies: {},
  devDependencies: {
    "@builder.io/qwik": "1.20.1",
    "@builder.io/qwik-city": "1.20.1",
    vite: "7.3.1",
    // The starter's vite.config.ts resolves `~/` through tsconfig.json's paths with this plugin (it writes ^4.2.1).
    "vite-tsconfig-paths": "4.3.2",
    typescript: "5.4.5",
    "@types/node": "20.19.0",
    // The Qwik CLI (`qwik build`) loads `ignore` without declaring it: the starter's eslint brings it.
    eslint: "9.32.0",
  },
};

/** The node-server adapter's built server (`npm run serve`), on the port the harness picks. */
export const QWIK_SERVER: ServerCommand = {
  name: "the Qwik City server",
  args: () => ["server/entry.node-server.js"],
  env: { NODE_ENV: "production", AUTH_SECRET: crypto.randomUUID() + crypto.randomUUID() },
  ready: "/auth/providers",
  portVariable: "PORT",
};
