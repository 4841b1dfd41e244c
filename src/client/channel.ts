/**
 * Keeping tabs in step: a sign-in, sign-out or update in one tab is announced on a
 * `BroadcastChannel` (or, where there is none, through a `storage` event), and every tab —
 * the announcing one included — refetches its session. Nothing but the kind of change travels.
 */

export type SessionChange = "signin" | "signout" | "update";

const CHANNEL = "appauth.session";
const STORAGE_KEY = "appauth.session-change";

type Listener = (change: SessionChange) => void;

const listeners = new Set<Listener>();
let channel: BroadcastChannel | null | undefined;

function isChange(value: unknown): value is SessionChange {
  return value === "signin" || value === "signout" || value === "update";
}

function notify(change: SessionChange): void {
  for (const listener of [...listeners]) listener(change);
}

/** The tab's channel, opened on first use; `null` where the browser has none (then storage events serve). */
function openChannel(): BroadcastChannel | null {
  if (channel !== undefined) return channel;
  if (typeof BroadcastChannel === "undefined") {
    channel = null;
    if (typeof window !== "undefined") {
      window.addEventListener("storage", (event) => {
        if (event.key !== STORAGE_KEY || !event.newValue) return;
        try {
          const change = (JSON.parse(event.newValue) as { change?: unknown }).change;
          if (isChange(change)) notify(change);
        } catch {
          // Not ours.
        }
      });
    }
    return channel;
  }
  channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event: MessageEvent<unknown>) => {
    const change = (event.data as { change?: unknown } | null)?.change;
    if (isChange(change)) notify(change);
  };
  return channel;
}

/**
 * Tells the other tabs, and unless `local` is false this one too, that the session changed. A tab
 * that is about to navigate away passes `local: false`: its page is going, so it need not refetch.
 */
export function announce(change: SessionChange, options: { local?: boolean } = {}): void {
  if (typeof window === "undefined") return;
  if (options.local !== false) notify(change);
  const open = openChannel();
  if (open) {
    open.postMessage({ change });
    return;
  }
  try {
    // A fresh value each time, or a repeated change would not fire the event.
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify({ change, at: Date.now() }));
  } catch {
    // Storage may be off (private mode): the other tabs catch up on focus.
  }
}

/** Calls `listener` on every change announced here or in another tab; returns the unsubscribe. */
export function onSessionChange(listener: Listener): () => void {
  openChannel();
  listeners.add(listener);
  return () => listeners.delete(listener);
}
