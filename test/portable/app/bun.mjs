/* global Bun */
/** The app on Bun.serve. */
import { createApp } from "./app.mjs";
import { redisStore } from "./redis-store.mjs";
import { readSettings } from "./settings.mjs";

const settings = readSettings((name) => Bun.env[name]);
const handle = createApp(settings, redisStore(settings));
const server = Bun.serve({ hostname: "127.0.0.1", port: Number(Bun.env.PORT), fetch: handle });
console.log(`listening ${server.port}`);
