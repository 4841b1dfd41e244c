import { Suspense } from "react";
import { auth } from "@/auth";
import { ClientSession } from "./client-session";

// create-next-app 16's config has cacheComponents: a component reading the request (auth() reads the
// cookies) renders inside <Suspense>, or `next build` refuses the page.
export default function Home() {
  return (
    <main>
      <Suspense fallback={<p>Loading…</p>}>
        <ServerSession />
      </Suspense>
      <ClientSession />
      <a href="/api/auth/signin">Sign in</a>
    </main>
  );
}

async function ServerSession() {
  const session = await auth();
  return (
    <>
      <h1>{session?.user ? `Signed in as ${session.user.name ?? session.user.email}` : "Not signed in"}</h1>
      <p data-testid="server-email">{session?.user?.email ?? ""}</p>
    </>
  );
}
