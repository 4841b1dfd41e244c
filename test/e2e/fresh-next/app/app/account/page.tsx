import { auth } from "@/auth";

export default async function Account() {
  const session = await auth();
  return <h1>Account of {session?.user?.email}</h1>;
}
