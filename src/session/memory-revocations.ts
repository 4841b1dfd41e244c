/**
 * Session revocations held in one process: the memory adapter's, and the store a configuration
 * without a shared one falls back to (session/revocation.ts). Notices go to this process's watchers
 * only, synchronously, so a revocation holds at once here and nowhere else.
 */
import type { RevocationNotice, SessionRevocation, StoredRevocations } from "../adapters/extensions.js";

interface UserRecord {
  revokedBefore: number;
  keptSessionId: string | null;
  /** When the per-user part may be forgotten (0: there is none). */
  expires: number;
  sessions: Map<string, number>;
}

export interface MemoryRevocations {
  saveSessionRevocation(revocation: SessionRevocation): Promise<void>;
  getSessionRevocations(userId: string): Promise<StoredRevocations>;
  watchSessionRevocations(onNotice: (notice: RevocationNotice) => void): Promise<() => Promise<void>>;
}

export function memoryRevocations(): MemoryRevocations {
  const users = new Map<string, UserRecord>();
  const watchers = new Set<(notice: RevocationNotice) => void>();

  /** Drops what has expired; the user goes when nothing is left. */
  function current(userId: string, now: number): UserRecord | undefined {
    const record = users.get(userId);
    if (!record) return undefined;
    for (const [sessionId, expires] of record.sessions) if (expires <= now) record.sessions.delete(sessionId);
    if (record.expires <= now) Object.assign(record, { revokedBefore: 0, keptSessionId: null, expires: 0 });
    if (record.expires === 0 && record.sessions.size === 0) {
      users.delete(userId);
      return undefined;
    }
    return record;
  }

  return {
    async saveSessionRevocation({ userId, sessionId, exceptSessionId, revokedAt, expires }) {
      const now = Date.now();
      // Revocations are rare: sweeping every user on each keeps the map bounded with no timer.
      for (const other of [...users.keys()]) current(other, now);
      const record = users.get(userId) ?? { revokedBefore: 0, keptSessionId: null, expires: 0, sessions: new Map<string, number>() };
      if (sessionId !== undefined) record.sessions.set(sessionId, expires.getTime());
      else Object.assign(record, { revokedBefore: revokedAt.getTime(), keptSessionId: exceptSessionId ?? null, expires: expires.getTime() });
      users.set(userId, record);
      for (const watcher of watchers) watcher({ userId });
    },

    async getSessionRevocations(userId) {
      const record = current(userId, Date.now());
      return {
        revokedBefore: record && record.expires > 0 ? new Date(record.revokedBefore) : null,
        keptSessionId: record?.keptSessionId ?? null,
        sessionIds: record ? [...record.sessions.keys()] : [],
      };
    },

    async watchSessionRevocations(onNotice) {
      watchers.add(onNotice);
      onNotice({ connected: true });
      return async () => void watchers.delete(onNotice);
    },
  };
}
