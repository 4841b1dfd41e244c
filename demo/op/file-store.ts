/**
 * The demo OP's storage: oidc-provider's adapter contract (lib/adapters/memory_adapter.js) over one
 * JSON file, so OP sessions, consents and refresh tokens survive a restart of `npm start`. Everything
 * is held in memory; each change rewrites the file (beside it, then renamed over it). Good for a demo's
 * handful of records, not for production.
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { Adapter, AdapterPayload } from "oidc-provider";

interface Entry {
  payload: AdapterPayload;
  /** Milliseconds since the epoch; absent when the record does not expire. */
  expiresAt?: number;
}

export class FileStore {
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    readonly file: string,
    private readonly entries: Map<string, Entry>,
  ) {}

  /** Reads `file` (a missing or unreadable file starts empty) and drops what has expired. */
  static async open(file: string): Promise<FileStore> {
    let stored: Record<string, Entry> = {};
    try {
      const parsed: unknown = JSON.parse(await readFile(file, "utf8"));
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) stored = parsed as Record<string, Entry>;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" && !(error instanceof SyntaxError)) throw error;
    }
    const now = Date.now();
    const live = Object.entries(stored).filter(([, entry]) => entry?.payload && !(entry.expiresAt !== undefined && entry.expiresAt <= now));
    return new FileStore(file, new Map(live));
  }

  /** The adapter class oidc-provider instantiates once per model (Session, Grant, …). */
  adapterClass(): new (model: string) => Adapter {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the class below is built per store
    const store = this;
    return class FileAdapter implements Adapter {
      constructor(readonly model: string) {}

      async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
        store.set(this.model, id, payload, expiresIn);
      }

      async find(id: string): Promise<AdapterPayload | undefined> {
        return store.get(this.model, id);
      }

      async findByUid(uid: string): Promise<AdapterPayload | undefined> {
        return store.findWhere(this.model, (payload) => payload.uid === uid);
      }

      async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
        return store.findWhere(this.model, (payload) => payload.userCode === userCode);
      }

      async consume(id: string): Promise<void> {
        store.update(this.model, id, (payload) => ({ ...payload, consumed: Math.floor(Date.now() / 1000) }));
      }

      async destroy(id: string): Promise<void> {
        store.delete(this.model, id);
      }

      async revokeByGrantId(grantId: string): Promise<void> {
        store.deleteWhere((payload) => payload.grantId === grantId);
      }
    };
  }

  /** Stores `payload` as model/id; `expiresIn` in seconds (absent: kept until deleted). */
  set(model: string, id: string, payload: AdapterPayload, expiresIn?: number): void {
    const entry: Entry = { payload: structuredClone(payload) };
    if (expiresIn !== undefined) entry.expiresAt = Date.now() + expiresIn * 1000;
    this.entries.set(key(model, id), entry);
    this.persist();
  }

  get(model: string, id: string): AdapterPayload | undefined {
    const entry = this.live(key(model, id));
    return entry ? structuredClone(entry.payload) : undefined;
  }

  /** Resolves once every change so far is on disk. */
  flush(): Promise<void> {
    return this.writing;
  }

  private update(model: string, id: string, change: (payload: AdapterPayload) => AdapterPayload): void {
    const entry = this.live(key(model, id));
    if (!entry) return;
    entry.payload = change(entry.payload);
    this.persist();
  }

  private delete(model: string, id: string): void {
    if (this.entries.delete(key(model, id))) this.persist();
  }

  private deleteWhere(matches: (payload: AdapterPayload) => boolean): void {
    let changed = false;
    for (const [k, entry] of this.entries) {
      if (matches(entry.payload)) changed = this.entries.delete(k) || changed;
    }
    if (changed) this.persist();
  }

  private findWhere(model: string, matches: (payload: AdapterPayload) => boolean): AdapterPayload | undefined {
    const prefix = key(model, "");
    for (const [k] of this.entries) {
      if (!k.startsWith(prefix)) continue;
      const entry = this.live(k);
      if (entry && matches(entry.payload)) return structuredClone(entry.payload);
    }
    return undefined;
  }

  private live(k: string): Entry | undefined {
    const entry = this.entries.get(k);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= Date.now()) {
      this.entries.delete(k);
      return undefined;
    }
    return entry;
  }

  /** Queues a write of the whole map; writes never overlap, and a failed one is reported, not fatal. */
  private persist(): void {
    const snapshot = JSON.stringify(Object.fromEntries(this.entries));
    this.writing = this.writing.then(async () => {
      try {
        await mkdir(dirname(this.file), { recursive: true, mode: 0o700 });
        const partial = `${this.file}.${process.pid}.tmp`;
        await writeFile(partial, snapshot, { mode: 0o600 });
        await rename(partial, this.file);
      } catch (error) {
        console.error(`[demo OP] could not write ${this.file}:`, error);
      }
    });
  }
}

function key(model: string, id: string): string {
  return `${model}:${id}`;
}
