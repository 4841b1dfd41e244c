// Every route of the library (sign-in pages, callbacks, session, ...) under /api/auth.
import { handlers } from "../../../../auth";

export const { GET, POST } = handlers;
