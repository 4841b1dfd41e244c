/**
 * PostgreSQL's half of revocation notices: one connection of its own (outside the pool, which hands
 * connections to any query) that `LISTEN`s on the revocation channel. A dropped connection is
 * reported (`connected: false`, readers then re-read every second) and made again every second
 * until it is back or the watch is stopped; the timer never keeps the process alive.
 */
import type { PoolConfig } from "pg";
import type { RevocationNotice } from "../extensions.js";
import { importDriver } from "./owned.js";

const RECONNECT_MS = 1_000;

export async function listenForRevocations(
  config: PoolConfig,
  channel: string,
  onNotice: (notice: RevocationNotice) => void,
): Promise<() => Promise<void>> {
  const { default: pg } = await importDriver("postgresAdapter", "pg", () => import("pg"));
  let current: InstanceType<typeof pg.Client> | undefined;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  async function connect(): Promise<void> {
    const client = new pg.Client(config);
    // A dropped connection emits "error" then "end"; "end" alone decides what happens next.
    client.on("error", () => {});
    client.on("notification", (message) => {
      if (message.channel === channel && message.payload) onNotice({ userId: message.payload });
    });
    client.on("end", () => {
      if (current !== client) return;
      current = undefined;
      onNotice({ connected: false });
      retry();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    if (stopped) {
      await client.end().catch(() => {});
      return;
    }
    current = client;
    onNotice({ connected: true });
  }

  function retry(): void {
    if (stopped) return;
    timer = setTimeout(() => void connect().catch(retry), RECONNECT_MS);
    timer.unref?.();
  }

  await connect();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    const client = current;
    current = undefined;
    await client?.end().catch(() => {});
  };
}
