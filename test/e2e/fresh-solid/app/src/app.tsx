// The root, as the docs' client section: the SessionProvider seeded with the server's session.
import { createAsync, Router } from "@solidjs/router";
import { FileRoutes } from "@solidjs/start/router";
import { onMount, Suspense, type ParentProps } from "solid-js";
import { SessionProvider } from "appauth/solid-start/client";
import { getSession } from "~/lib/server";

function Root(props: ParentProps) {
  const session = createAsync(() => getSession(), { deferStream: true });
  // Not from the docs: tells the tests the page is live (hydrated), so a click is not lost.
  onMount(() => document.documentElement.setAttribute("data-hydrated", ""));
  return (
    <Suspense>
      <SessionProvider session={session()}>{props.children}</SessionProvider>
    </Suspense>
  );
}

export default function App() {
  return (
    <Router root={Root}>
      <FileRoutes />
    </Router>
  );
}
