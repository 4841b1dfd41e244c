// Every route of the library (sign-in pages, callbacks, session, ...) under /api/auth, each run as
// the browser's flow viewer so the flows page (/flows) can show that browser its own flows.
import type { NextRequest } from "next/server";
import { handlers } from "../../../../auth";
import { asViewer } from "../../../../lib/flows";

export const GET = (request: NextRequest) => asViewer(() => handlers.GET(request));
export const POST = (request: NextRequest) => asViewer(() => handlers.POST(request));
