"use client";
// Server components render the session too (the home page's heading, the protected page's card):
// when the browser's session changes — a sign-in, sign-out or rename here or in another tab, which
// `SessionProvider` hears of through its broadcast — they are rendered again with `router.refresh()`.
import { useSession } from "appauth/react";
import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { refreshUnlessLeaving, sessionKey } from "../../shared/session-change";

export function SessionRefresh() {
  const { data, status } = useSession();
  const router = useRouter();
  const seen = sessionKey(status, data?.user);
  const last = useRef(seen);
  useEffect(() => {
    if (seen === undefined) return;
    const changed = last.current !== undefined && last.current !== seen;
    last.current = seen;
    return changed ? refreshUnlessLeaving(() => router.refresh()) : undefined;
  }, [seen, router]);
  return null;
}
