/**
 * The app as a workerd `fetch` handler, bundled with esbuild and run with no Node compatibility flag.
 * Settings are text bindings. No TCP driver runs here without `nodejs_compat`, so /db keeps its
 * sessions in the memory adapter (in this isolate).
 */
import { MemoryAdapter } from "appauth/adapters/memory";
import { createApp } from "./app.mjs";
import { readSettings } from "./settings.mjs";

let handle;

export default {
  fetch(request, env) {
    handle ??= createApp(readSettings((name) => env[name]), { databaseAdapter: MemoryAdapter(), store: "memory adapter (no TCP driver without nodejs_compat)" });
    return handle(request);
  },
};
