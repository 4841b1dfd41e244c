// Every route of the library under the prefix /api/auth: sign-in pages, callbacks, session, passkeys.
import { auth } from "~/lib/auth";

export const { GET, POST } = auth;
