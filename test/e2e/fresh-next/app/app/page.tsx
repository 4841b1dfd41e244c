import { auth } from "@/auth";
import { ClientSession } from "./client-session";

export default async function Home() {
  const session = await auth();
  return (
    <main>
      <h1>{session?.user ? `Signed in as ${session.user.name ?? session.user.email}` : "Not signed in"}</h1>
      <p data-testid="server-email">{session?.user?.email ?? ""}</p>
      <ClientSession />
      <a href="/api/auth/signin">Sign in</a>
    </main>
  );
}
