/**
 * Revocations of JWT sessions on Redis (see session/revocation.ts): a hash per user, `user` holding
 * the per-user record (JSON) and `s:<sessionId>` each session revoked by id (its expiry, ms); the
 * hash lives as long as its longest record, and a record past its expiry reads as absent. Saving
 * publishes the user's id on the revocation channel in the same script; watchers subscribe on their
 * own connection (a duplicate of the adapter's client, closed when that client ends).
 */
import type { Redis } from "ioredis";
import type { RevocationNotice, SessionRevocation, StoredRevocations } from "../extensions.js";
import type { Keys } from "./codec.js";
import { runScript, scripts } from "./scripts.js";

const USER_FIELD = "user";
const SESSION_FIELD = "s:";

export interface RedisRevocations {
  saveSessionRevocation(revocation: SessionRevocation): Promise<void>;
  getSessionRevocations(userId: string): Promise<StoredRevocations>;
  watchSessionRevocations(onNotice: (notice: RevocationNotice) => void): Promise<() => Promise<void>>;
}

/** `channel`: as the server sees it (the client's `keyPrefix` is not applied to channels). */
export function redisRevocations(client: Redis, k: Keys, channel: string): RedisRevocations {
  return {
    async saveSessionRevocation({ userId, sessionId, exceptSessionId, revokedAt, expires }) {
      const ms = Math.max(1, Math.ceil(expires.getTime() - Date.now()));
      const [field, value] =
        sessionId === undefined
          ? [USER_FIELD, JSON.stringify({ revokedAt: revokedAt.getTime(), keptSessionId: exceptSessionId ?? null, expires: expires.getTime() })]
          : [`${SESSION_FIELD}${sessionId}`, String(expires.getTime())];
      await runScript(client, scripts.saveRevocation, [k.revocations(userId)], [field, value, ms, channel, userId]);
    },

    async getSessionRevocations(userId) {
      const fields = await client.hgetall(k.revocations(userId));
      const now = Date.now();
      const user = fields[USER_FIELD] ? (JSON.parse(fields[USER_FIELD]) as { revokedAt: number; keptSessionId: string | null; expires: number }) : null;
      const standing = user && user.expires > now ? user : null;
      return {
        revokedBefore: standing ? new Date(standing.revokedAt) : null,
        keptSessionId: standing?.keptSessionId ?? null,
        sessionIds: Object.entries(fields)
          .filter(([field, value]) => field.startsWith(SESSION_FIELD) && Number(value) > now)
          .map(([field]) => field.slice(SESSION_FIELD.length)),
      };
    },

    async watchSessionRevocations(onNotice) {
      const subscriber = client.duplicate();
      // Nothing is lost silently: while the connection is down readers re-read every second, and
      // every entry cached before goes when it is back (ioredis subscribes again by itself).
      subscriber.on("error", () => {});
      subscriber.on("close", () => onNotice({ connected: false }));
      subscriber.on("message", (from: string, userId: string) => {
        if (from === channel) onNotice({ userId });
      });
      const end = () => subscriber.disconnect();
      client.once("end", end);
      try {
        await subscriber.subscribe(channel);
      } catch (error) {
        client.off("end", end);
        subscriber.disconnect();
        throw error;
      }
      subscriber.on("ready", () => onNotice({ connected: true }));
      onNotice({ connected: true });
      return async () => {
        client.off("end", end);
        await subscriber.quit().catch(() => subscriber.disconnect());
      };
    },
  };
}
