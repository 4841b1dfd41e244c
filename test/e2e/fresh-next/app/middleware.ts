// Next 15: every page request passes here (edge runtime). The session is kept alive and
// `authorized` (auth.config.ts) guards /account. Only the adapter-free config is imported.
import AppAuth from "appauth/next/middleware";
import { authConfig } from "./auth.config";

export default AppAuth(authConfig).auth;

export const config = { matcher: ["/((?!api/auth|_next/static|_next/image|favicon.ico).*)"] };
