/**
 * What the examples do when the browser's session changes (a sign-in, sign-out or rename in this
 * tab or another): render the server's part of the page again. A page that requires a session
 * leaves for the sign-in page in the same turn; refreshing it as well would race that navigation,
 * so the refresh waits a task and is dropped once the page started to leave.
 */

/** Who is signed in and under what name, as a comparable key; `undefined` while unknown. */
export function sessionKey(status: string, user: unknown): string | undefined {
  return status === "loading" ? undefined : JSON.stringify(user ?? null);
}

/** Calls `refresh` after the current task unless the page is unloading by then; returns the cancel. */
export function refreshUnlessLeaving(refresh: () => void): () => void {
  let leaving = false;
  const onLeave = () => {
    leaving = true;
  };
  window.addEventListener("beforeunload", onLeave);
  const timer = window.setTimeout(() => {
    window.removeEventListener("beforeunload", onLeave);
    if (!leaving) refresh();
  }, 0);
  return () => {
    window.clearTimeout(timer);
    window.removeEventListener("beforeunload", onLeave);
  };
}
