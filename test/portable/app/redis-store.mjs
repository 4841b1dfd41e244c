/** Database sessions on Redis through ioredis (the Redis adapter's driver), for the runtimes with TCP sockets that ioredis uses. */
import { Redis } from "ioredis";
import { RedisAdapter } from "appauth/adapters/redis";

export function redisStore(settings) {
  const client = new Redis(settings.redisUrl, { connectTimeout: 5000, commandTimeout: 5000, maxRetriesPerRequest: 1 });
  return { databaseAdapter: RedisAdapter(client, { prefix: settings.redisPrefix }), store: "Redis (ioredis)" };
}
