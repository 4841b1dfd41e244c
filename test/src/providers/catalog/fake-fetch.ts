/**
 * A fake `fetch` for a provider's `request` functions: it serves fixed answers by URL and records
 * every call (URL, method, headers, body), so tests can assert what a provider would have sent.
 * An unknown URL answers 404, as a real server would.
 */
import type { ProviderFetch } from "../../../../src/providers/oauth-types.js";

export interface RecordedCall {
  url: string;
  method: string;
  headers: Headers;
  body: string | null;
}

/** A non-JSON or non-200 answer. A plain value in the routes is served as a JSON 200. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: BodyInit | null = null,
    readonly headers: Record<string, string> = {},
  ) {}

  static json(status: number, body: unknown): Reply {
    return new Reply(status, JSON.stringify(body), { "content-type": "application/json" });
  }
}

export type Route = Reply | ((call: RecordedCall) => Reply | unknown | Promise<Reply | unknown>) | unknown;

export interface FakeFetch extends ProviderFetch {
  calls: RecordedCall[];
}

/**
 * Routes are keyed by the full URL (query included), optionally prefixed with the method: `"POST https://..."`.
 * A key ending in `?*` serves that URL with any query.
 */
export function fakeFetch(routes: Record<string, Route>): FakeFetch {
  const calls: RecordedCall[] = [];
  const fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const request = new Request(input, init);
    const body = request.body ? await request.text() : null;
    const call: RecordedCall = { url: request.url, method: request.method, headers: request.headers, body };
    calls.push(call);
    const bare = call.url.includes("?") ? `${call.url.slice(0, call.url.indexOf("?"))}?*` : undefined;
    const route = routes[`${call.method} ${call.url}`] ?? routes[call.url] ?? (bare && (routes[`${call.method} ${bare}`] ?? routes[bare]));
    if (route === undefined) return new Response("not found", { status: 404 });
    const answer = typeof route === "function" ? await (route as (call: RecordedCall) => unknown)(call) : route;
    if (answer instanceof Reply) return new Response(answer.body, { status: answer.status, headers: answer.headers });
    return Response.json(answer);
  };
  return Object.assign(fetch, { calls });
}
