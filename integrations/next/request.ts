/**
 * Where Next.js gives no `Request` — server components and server actions (`next/headers`), API
 * routes and `getServerSideProps` (Node's `IncomingMessage`) — this builds one with the same origin,
 * headers and cookies, for the core's server-side operations.
 */
import { nextHeaders } from "./modules.js";

/** The request half of a pages-router API route or of `getServerSideProps`' context. */
export interface NodeRequestLike {
  headers: Record<string, string | string[] | undefined>;
  url?: string;
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

/**
 * The request being served, from `next/headers`: its headers, the cookies as the cookie store sees
 * them now (a server action that already set one reads it back), and the referring page's path.
 */
export async function requestFromNextHeaders(): Promise<Request> {
  const { cookies, headers } = await nextHeaders();
  const incoming = await headers();
  const store = await cookies();
  const forwarded = new Headers();
  incoming.forEach((value, name) => {
    if (name !== "cookie" && name !== "content-length" && name !== "content-type") forwarded.set(name, value);
  });
  const cookieHeader = store
    .getAll()
    .map((cookie) => `${cookie.name}=${encodeURIComponent(cookie.value)}`)
    .join("; ");
  if (cookieHeader) forwarded.set("cookie", cookieHeader);
  const origin = originFrom((name) => incoming.get(name), false);
  return new Request(`${origin}${samePath(origin, incoming.get("referer"))}`, { headers: forwarded });
}

/** A `Request` for a Node request (pages-router API route, `getServerSideProps`); never reads the body. */
export function requestFromNode(req: NodeRequestLike): Request {
  const forwarded = new Headers();
  for (const [name, value] of Object.entries(req.headers ?? {})) {
    if (value === undefined || name.startsWith(":")) continue;
    if (name === "content-length" || name === "content-type" || name === "transfer-encoding") continue;
    const values = Array.isArray(value) ? value : [value];
    // Several Cookie headers form one list separated by "; " (RFC 6265 §5.4).
    if (name === "cookie") forwarded.set(name, values.join("; "));
    else for (const v of values) forwarded.append(name, v);
  }
  const get = (name: string) => {
    const value = req.headers?.[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const origin = originFrom(get, (req.socket as { encrypted?: unknown } | undefined)?.encrypted === true);
  const path = req.url?.startsWith("/") && !req.url.startsWith("//") ? req.url : "/";
  return new Request(`${origin}${path}`, { headers: forwarded });
}

/** The page a server action was called from (its `Referer`), as a path of this origin, for default redirects. */
export function currentPage(request: Request): string {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}
