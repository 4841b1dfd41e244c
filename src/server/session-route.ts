/**
 * `GET /session` on its own: the route a session read needs, answered by the session machines
 * (JWT or database) without the router and flows of the full handler. It gives the same answer as
 * `Auth()` does for that route, so reading a session in middleware costs one small bundle.
 */
import type { Runtime } from "../config/runtime.js";
import { bindDatabaseSession, type BoundDatabaseSession } from "../flows/database-session.js";
import { bindSessionMachine, handleSession, type BoundSessionMachine } from "../flows/session.js";
import { toResponse } from "../response.js";
import { buildContext } from "../router.js";

interface SessionFlows {
  jwt: BoundSessionMachine;
  database: BoundDatabaseSession;
}

const boundFlows = new WeakMap<Runtime, SessionFlows>();

/** The session machines of a runtime, bound to its effects once. */
function sessionFlowsOf(rt: Runtime): SessionFlows {
  let flows = boundFlows.get(rt);
  if (!flows) {
    flows = { jwt: bindSessionMachine(rt), database: bindDatabaseSession(rt) };
    boundFlows.set(rt, flows);
  }
  return flows;
}

/**
 * Answers a `GET {basePath}/session` request for a resolved runtime (a server-side read resolves its
 * config once); throws (untrusted host) where `Auth()` would answer 4xx/5xx.
 */
export async function answerSession(rt: Runtime, request: Request): Promise<Response> {
  const ctx = await buildContext(rt, request);
  if (ctx.action !== "session" || ctx.method !== "GET") throw new TypeError("answerSession answers GET /session only");
  const plan = await handleSession(rt, sessionFlowsOf(rt), ctx);
  return toResponse(plan, { returnRedirect: false });
}
