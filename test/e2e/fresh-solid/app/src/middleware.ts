import { createMiddleware } from "@solidjs/start/middleware";
import { auth } from "~/lib/auth";

export default createMiddleware({ onRequest: [auth.middleware({ protect: ["/account"] })] });
