import { Suspense } from "react";
import { auth } from "@/auth";

export default function Account() {
  return (
    <Suspense fallback={<p>Loading…</p>}>
      <AccountOf />
    </Suspense>
  );
}

async function AccountOf() {
  const session = await auth();
  return <h1>Account of {session?.user?.email}</h1>;
}
