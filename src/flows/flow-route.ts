/**
 * How a flow offers its routes to the table (routes.ts): one shape for every flow, a function of the
 * runtime, the request's context and the provider the path names. The flow's machines are bound to
 * the runtime's effects once (`bound`), and a sign-in's answer becomes the table's.
 */
import { bound, type Runtime } from "../config/runtime.js";
import type { RequestContext } from "../request-context.js";
import type { RouteAnswer } from "../response.js";
import type { SignInAnswer } from "./outcome.js";

/** A route's handler as the table calls it. */
export type FlowRouteHandler<P> = (rt: Runtime, ctx: RequestContext, provider: P) => Promise<RouteAnswer>;

/** The handler `handle` of a flow whose machines `bind` binds, once per runtime. */
export function flowRoute<Machines, P>(
  bind: (rt: Runtime) => Machines,
  handle: (rt: Runtime, machines: Machines, ctx: RequestContext, provider: P) => Promise<RouteAnswer | SignInAnswer>,
): FlowRouteHandler<P> {
  return async (rt, ctx, provider) => {
    const answer = await handle(rt, bound(rt, bind), ctx, provider);
    return "plan" in answer ? answer.plan : answer;
  };
}

/** The route `key` of a flow module imported on first use (`lazy`): the module's `routes` hold them. */
export function lazyFlowRoute<K extends string, P>(load: () => Promise<{ routes: Record<K, FlowRouteHandler<P>> }>, key: K): FlowRouteHandler<P> {
  return async (rt, ctx, provider) => (await load()).routes[key](rt, ctx, provider);
}
