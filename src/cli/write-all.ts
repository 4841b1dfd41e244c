/**
 * Writes a batch of files all or nothing. Every new content goes first to a temporary file beside its
 * target (same folder, so same file system, so the rename is atomic); only when every one of them is
 * written are they renamed into place. A failure before the renames removes the temporary files and
 * leaves every target as it was; a failed rename (rare: the folder changed under us) puts back the
 * targets already replaced.
 */
import { randomBytes } from "node:crypto";
import { access, constants, open, rename, stat, unlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

export interface PlannedWrite {
  path: string;
  content: Uint8Array;
  /** The target's content now, put back if a later rename fails. */
  original: Uint8Array;
}

/** Why the batch was not written: the file that could not be, and the system's reason. */
export interface WriteRefusal {
  path: string;
  reason: string;
}

/** Writes every planned file, or none; `undefined` when all are written. */
export async function writeAll(plan: readonly PlannedWrite[]): Promise<WriteRefusal | undefined> {
  // Checked first so that an obviously read-only file refuses before any temporary file exists.
  for (const { path } of plan) {
    const refused = await attempt(path, async () => {
      await access(path, constants.W_OK);
      await access(dirname(path), constants.W_OK);
    });
    if (refused) return refused;
  }
  const temporaries: string[] = [];
  for (const { path, content } of plan) {
    const temporary = join(dirname(path), `.appauth-migrate-${randomBytes(6).toString("hex")}.tmp`);
    const refused = await attempt(path, async () => {
      const { mode } = await stat(path);
      // "wx": a name that exists is someone else's file, never overwritten nor removed.
      const handle = await open(temporary, "wx", 0o600);
      temporaries.push(temporary);
      try {
        await handle.writeFile(content);
        await handle.chmod(mode & 0o7777);
        // On disk before the rename makes it the file: a crash leaves the old content or the new, not an empty file.
        await handle.sync();
      } finally {
        await handle.close();
      }
    });
    if (refused) {
      await Promise.all(temporaries.map((file) => unlink(file).catch(() => undefined)));
      return refused;
    }
  }
  for (const [index, { path }] of plan.entries()) {
    const refused = await attempt(path, () => rename(temporaries[index]!, path));
    if (refused) {
      await Promise.all(temporaries.slice(index).map((file) => unlink(file).catch(() => undefined)));
      for (const { path: done, original } of plan.slice(0, index)) await writeFile(done, original).catch(() => undefined);
      return refused;
    }
  }
  return undefined;
}

async function attempt(path: string, work: () => Promise<unknown>): Promise<WriteRefusal | undefined> {
  try {
    await work();
    return undefined;
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    return { path, reason: code ?? message };
  }
}
