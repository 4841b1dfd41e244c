// The root layout reads the session on the server and hands it to the client: no fetch on first paint.
import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { SessionProvider } from "appauth/react";
import { auth } from "../auth";
import { SessionRefresh } from "../components/session-refresh";
import { UserMenu } from "../components/user-menu";
// The stylesheet the three framework examples share (Qwik and SolidStart import it too).
import "../../shared/demo.css";

export const metadata: Metadata = {
  title: "appauth · Next.js example",
  // app/favicon.svg/route.ts serves the examples' shared icon.
  icons: { icon: { url: "/favicon.svg", type: "image/svg+xml" } },
};
export const dynamic = "force-dynamic";

export default async function RootLayout({ children }: { children: ReactNode }) {
  const session = await auth();
  return (
    <html lang="en">
      <body>
        <SessionProvider session={session} refetchInterval={5 * 60}>
          <SessionRefresh />
          <header className="top">
            <Link href="/" className="brand">
              appauth · Next.js
            </Link>
            <nav aria-label="Main">
              <Link href="/protected">Protected area</Link>
              <Link href="/flows">Flows</Link>
              <Link href="/dev/mailbox">Dev mailbox</Link>
              <UserMenu />
            </nav>
          </header>
          <main>{children}</main>
        </SessionProvider>
      </body>
    </html>
  );
}
