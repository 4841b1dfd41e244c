// A pages-router API route: `auth(req, res)` reads the session (and refreshes its cookie on `res`).
import type { NextApiRequest, NextApiResponse } from "next";
import { auth } from "../../auth";

export default async function handler(req: NextApiRequest, res: NextApiResponse): Promise<void> {
  const session = await auth(req, res);
  res.setHeader("cache-control", "no-store");
  res.status(200).json({ signedIn: Boolean(session?.user), session });
}
