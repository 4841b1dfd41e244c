/* global Deno */
/** The app on Deno.serve (npm packages from the project's node_modules). */
import { createApp } from "./app.mjs";
import { redisStore } from "./redis-store.mjs";
import { readSettings } from "./settings.mjs";

const settings = readSettings((name) => Deno.env.get(name));
const handle = createApp(settings, redisStore(settings));
Deno.serve({ hostname: "127.0.0.1", port: Number(Deno.env.get("PORT")), onListen: ({ port }) => console.log(`listening ${port}`) }, handle);
