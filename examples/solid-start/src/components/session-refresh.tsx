// The server's reads of the session (the home page's heading, the layout's seed) are read again
// when the browser's session changes — a sign-in, sign-out or rename here or in another tab, which
// `SessionProvider` hears of through its broadcast.
import { revalidate } from "@solidjs/router";
import { createEffect, onCleanup } from "solid-js";
import { useSession } from "appauth/solid-start/client";
import { getSessionQuery } from "~/lib/server";
import { refreshUnlessLeaving, sessionKey } from "../../../shared/session-change";

export function SessionRefresh() {
  const session = useSession();
  let last: string | undefined;
  createEffect(() => {
    const seen = sessionKey(session.status(), session.data()?.user);
    if (seen === undefined) return;
    const changed = last !== undefined && last !== seen;
    last = seen;
    if (changed) onCleanup(refreshUnlessLeaving(() => void revalidate(getSessionQuery.key)));
  });
  return null;
}
