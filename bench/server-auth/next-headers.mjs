// What `next/headers` is in bench/server-auth.ts: the request scope the Next integration tests use.
import { nextHeaders } from "../../test/integrations/next/next-request-scope.js";

export const headers = nextHeaders.headers;
export const cookies = nextHeaders.cookies;
