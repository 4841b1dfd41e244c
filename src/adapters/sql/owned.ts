/** What the per-driver constructors share: the adapter they return, and a clear error for a missing driver. */
import type { SqlAdapterInstance } from "./adapter.js";
import type { AnyKysely } from "./dialect.js";

/** An adapter that owns its connection: `db` for your own queries, `destroy()` to close it. */
export interface OwnedSqlAdapter extends SqlAdapterInstance {
  /** The Kysely instance on the adapter's connection, for your own queries. */
  readonly db: AnyKysely;
  /** Closes the connection. */
  destroy(): Promise<void>;
}

/** Imports an optional peer dependency, naming the package to install when it is absent. */
export async function importDriver<T>(constructor: string, name: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw new Error(`${constructor} needs the "${name}" package: npm install ${name}`, { cause: error });
  }
}
