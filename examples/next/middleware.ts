/**
 * Every page request passes here (on the edge runtime): the session is kept alive, and
 * `callbacks.authorized` in auth.config.ts decides who may see /protected.
 */
import AppAuth from "appauth/next/middleware";
import { authConfig } from "./auth.config";

export default AppAuth(authConfig).auth;

export const config = {
  // Not the library's own routes, nor Next's static files.
  matcher: ["/((?!api/auth|_next/static|_next/image|favicon.ico|favicon.svg).*)"],
};
