// The root: the session read on the server seeds the SessionProvider, so the page makes no request
// for it when it loads; `deferStream` holds the page's headers until the read is done, so a
// rolled or refreshed session cookie still goes out with them.
import { Link, MetaProvider, Title } from "@solidjs/meta";
import { createAsync, Router } from "@solidjs/router";
import { FileRoutes } from "@solidjs/start/router";
import { Suspense, type ParentProps } from "solid-js";
import { SessionProvider } from "appauth/solid-start/client";
import { SessionRefresh } from "./components/session-refresh";
import { UserMenu } from "./components/user-menu";
import { getSessionQuery } from "./lib/server";
// The stylesheet and icon the three framework examples share.
import "../../shared/demo.css";
import favicon from "../../shared/favicon.svg?url";

function Layout(props: ParentProps) {
  const session = createAsync(() => getSessionQuery(), { deferStream: true });
  return (
    <MetaProvider>
      <Title>appauth · SolidStart example</Title>
      <Link rel="icon" type="image/svg+xml" href={favicon} />
      <Suspense>
        <SessionProvider session={session()} basePath="/api/auth" refetchInterval={5 * 60}>
          <SessionRefresh />
          <header class="top">
            <a href="/" class="brand">
              appauth · SolidStart
            </a>
            <nav aria-label="Main">
              <a href="/protected">Protected area</a>
              <a href="/dev/mailbox">Dev mailbox</a>
              <UserMenu />
            </nav>
          </header>
          <main>{props.children}</main>
        </SessionProvider>
      </Suspense>
    </MetaProvider>
  );
}

export default function App() {
  return (
    <Router root={Layout}>
      <FileRoutes />
    </Router>
  );
}
