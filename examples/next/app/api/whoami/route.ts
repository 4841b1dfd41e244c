// A route handler wrapped by `auth(...)`: `request.auth` holds the session (or null).
import { auth } from "../../../auth";

export const GET = auth((request) =>
  Response.json({ signedIn: Boolean(request.auth?.user), session: request.auth }, { headers: { "cache-control": "no-store" } }),
);
