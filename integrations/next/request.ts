/**
 * Where Next.js gives no `Request` — server components and server actions (`next/headers`), API
 * routes and `getServerSideProps` (Node's `IncomingMessage`) — this builds one with the same origin,
 * headers and cookies, for the core's server-side operations.
 */
import { parseCookies } from "../../src/cookies.js";
import type { SessionRequest } from "../../src/server/session-read.js";
import { nextHeaders, nextNavigation, nextServer } from "./modules.js";

/** The request half of a pages-router API route or of `getServerSideProps`' context. */
export interface NodeRequestLike {
  /** The request's headers, as Node gives them. */
  headers: Record<string, string | string[] | undefined>;
  /** The request's path and query. */
  url?: string;
  /** The request's method. */
  method?: string;
  /** Node's socket; a TLS socket (`encrypted: true`) makes the origin https. */
  socket?: unknown;
}

function first(value: string | null | undefined): string | undefined {
  return value?.split(",")[0]?.trim() || undefined;
}

function originFrom(get: (name: string) => string | null | undefined, encrypted: boolean): string {
  const host = first(get("x-forwarded-host")) ?? first(get("host")) ?? "localhost";
  const proto = first(get("x-forwarded-proto")) ?? (encrypted ? "https" : "http");
  return `${proto === "https" ? "https" : "http"}://${host}`;
}

/** A path with its query: the referring page's when it is of the same origin, else `/`. */
function samePath(origin: string, referer: string | null): string {
  if (!referer) return "/";
  try {
    const url = new URL(referer);
    return url.origin === origin ? `${url.pathname}${url.search}` : "/";
  } catch {
    return "/";
  }
}

/** The request being served, as `next/headers` gives it: its headers, and its cookies as the cookie store sees them now. */
export interface NextHeadersRequest extends SessionRequest {
  headers: Headers;
}

/**
 * Waits, through Next's `connection()`, until the render is one of a real request. What follows
 * reads the clock (expiry, sliding renewal), and with `cacheComponents` (create-next-app 16's
 * default) Next prerenders in stages: the cookies and headers resolve in a "runtime" stage that may
 * still be prerendered (partial prefetching), where reading `Date.now()` is an error Next shows
 * against the caller of `auth()`. Under `after()`, where `connection()` refuses to run and there is
 * nothing left to prerender, it does not wait.
 */
async function atRequestTime(): Promise<void> {
  const { connection } = await nextServer();
  if (typeof connection !== "function") return;
  try {
    await connection();
  } catch (error) {
    (await nextNavigation()).unstable_rethrow(error);
  }
}

/**
 * The request being served, from `next/headers`: its headers, the cookies as the cookie store sees
 * them now (a server action that already set one reads it back), and the referring page's URL.
 */
export async function nextHeadersRequest(): Promise<NextHeadersRequest> {
  const { cookies, headers } = await nextHeaders();
  const incoming = await headers();
  const store = await cookies();
  await atRequestTime();
  const jar = new Map<string, string>();
  for (const { name, value } of store.getAll()) if (!jar.has(name)) jar.set(name, value);
  const origin = originFrom((name) => incoming.get(name), false);
  return { url: `${origin}${samePath(origin, incoming.get("referer"))}`, headers: incoming, cookies: jar };
}

/** A `Request` with the same URL, headers and cookies, for what needs one (a lazy config, the server actions). */
export function requestOf(request: NextHeadersRequest): Request {
  const forwarded = new Headers();
  request.headers.forEach((value, name) => {
    if (name !== "cookie" && name !== "content-length" && name !== "content-type") forwarded.set(name, value);
  });
  const cookieHeader = [...request.cookies].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("; ");
  if (cookieHeader) forwarded.set("cookie", cookieHeader);
  return new Request(request.url, { headers: forwarded });
}

/** The request being served, from `next/headers`, as a `Request`. */
export async function requestFromNextHeaders(): Promise<Request> {
  return requestOf(await nextHeadersRequest());
}

/** The origin and path of a Node request, and a reader of its headers (the first of repeated ones). */
function nodeTarget(req: NodeRequestLike): { url: string; get: (name: string) => string | undefined } {
  const get = (name: string) => {
    const value = req.headers?.[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const origin = originFrom(get, (req.socket as { encrypted?: unknown } | undefined)?.encrypted === true);
  const path = req.url?.startsWith("/") && !req.url.startsWith("//") ? req.url : "/";
  return { url: `${origin}${path}`, get };
}

/** Several Cookie headers form one list separated by "; " (RFC 6265 §5.4). */
function cookieHeaderOf(req: NodeRequestLike): string | undefined {
  const value = req.headers?.cookie;
  return Array.isArray(value) ? value.join("; ") : value;
}

/** A `Request` for a Node request (pages-router API route, `getServerSideProps`); never reads the body. */
export function requestFromNode(req: NodeRequestLike): Request {
  const forwarded = new Headers();
  for (const [name, value] of Object.entries(req.headers ?? {})) {
    if (value === undefined || name.startsWith(":")) continue;
    if (name === "content-length" || name === "content-type" || name === "transfer-encoding") continue;
    if (name === "cookie") forwarded.set(name, cookieHeaderOf(req)!);
    else for (const v of Array.isArray(value) ? value : [value]) forwarded.append(name, v);
  }
  return new Request(nodeTarget(req).url, { headers: forwarded });
}

/** What a session read needs of a Node request, without building a `Request`. */
export function nodeSessionRequest(req: NodeRequestLike): SessionRequest {
  const { url, get } = nodeTarget(req);
  // A Host header that makes no URL throws here, as `new Request` would.
  return { url: new URL(url).href, headers: { get: (name) => get(name.toLowerCase()) ?? null }, cookies: parseCookies(cookieHeaderOf(req)) };
}

/** The page a server action was called from (its `Referer`), as a path of this origin, for default redirects. */
export function currentPage(request: Request): string {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}
