/** The stores the two-factor route tests run over: the memory adapter, and the SQLite SQL adapter on a scratch file. */
import type { TwoFactorAdapter } from "../../../src/adapters/extensions.js";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { sqliteAdapter } from "../../../src/adapters/sqlite/index.js";
import type { Adapter } from "../../../src/types.js";
import { scratchSqlite } from "../adapters/servers.js";

export type TwoFactorStore = Adapter & TwoFactorAdapter;

export interface OpenedStore {
  adapter: TwoFactorStore;
  close(): Promise<void>;
}

export const twoFactorStores: { name: string; open(): Promise<OpenedStore> }[] = [
  { name: "memory", open: async () => ({ adapter: MemoryAdapter() as TwoFactorStore, close: async () => {} }) },
  {
    name: "SQLite",
    open: async () => {
      const scratch = await scratchSqlite();
      const adapter = sqliteAdapter(scratch.location);
      await adapter.migrate();
      return {
        adapter: adapter as unknown as TwoFactorStore,
        close: async () => {
          await adapter.destroy();
          await scratch.drop();
        },
      };
    },
  },
];
