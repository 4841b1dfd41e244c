// The pages router: `auth(req, res)` in an API route.
import type { NextApiRequest, NextApiResponse } from "next";
import { auth } from "@/auth";

export default async function whoami(req: NextApiRequest, res: NextApiResponse) {
  const session = await auth(req, res);
  res.status(200).json({ email: session?.user?.email ?? null });
}
