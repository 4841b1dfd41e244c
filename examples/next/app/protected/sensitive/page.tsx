// A sensitive page: a session alone is not enough, its second factor must be at most five minutes old.
import { auth, requireRecentSecondFactor } from "../../../auth";

export const dynamic = "force-dynamic";

export default async function SensitivePage() {
  // Otherwise: to the step-up page (or, without a factor, to add one) and back here. A server
  // component is not told its own path, so it names it.
  await requireRecentSecondFactor(300, { redirectTo: "/protected/sensitive" });
  const session = await auth();
  return (
    <>
      <h1>Sensitive page</h1>
      <p className="muted">
        You proved your second factor in the last five minutes, {session?.user?.name ?? "you"}. Here an application would show an
        API key, or let you delete your account.
      </p>
      <p>
        <a href="/protected">Back to the protected page</a>
      </p>
    </>
  );
}
