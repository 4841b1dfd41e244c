// Creates or updates appauth's tables: run once per deploy, before `next start`.
import { sqliteAdapter } from "appauth/adapters/sqlite";

const adapter = sqliteAdapter(process.env.DATABASE_FILE ?? "auth.sqlite");
await adapter.migrate();
await adapter.destroy();
