/**
 * The bridge between `node:http` and the web `fetch` model: an `IncomingMessage` becomes a
 * `Request`, a `Response` is written to a `ServerResponse`, and `toNodeListener` wraps a
 * `(Request) => Promise<Response>` handler as a request listener. Nothing here knows about auth.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { TLSSocket } from "node:tls";
import { setClientAddress } from "../src/rate-limit/client-address.js";

/** A web-standard request handler, as `Auth` and the demo app are. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** Thrown when a request cannot be expressed as a web `Request` (no usable Host header). */
export class BadRequestError extends Error {
  override readonly name = "BadRequestError";
}

/** The origin a request was addressed to: its scheme and the Host header, checked to be a bare host[:port]. */
export function requestOrigin(req: IncomingMessage): string {
  const scheme = (req.socket as Partial<TLSSocket>).encrypted ? "https" : "http";
  const host = req.headers.host;
  if (!host) throw new BadRequestError("The request has no Host header.");
  let origin: URL;
  try {
    origin = new URL(`${scheme}://${host}`);
  } catch {
    throw new BadRequestError("The Host header is not a valid host.");
  }
  // A Host header carrying a path, credentials or a query would change where the URL points.
  if (origin.host.toLowerCase() !== host.toLowerCase()) throw new BadRequestError("The Host header is not a valid host.");
  return origin.origin;
}

/**
 * A web `Request` for an incoming message. The URL is absolute (scheme and Host header), every
 * header is kept, and the body of anything but GET/HEAD is streamed, not buffered. `signal`
 * lets the handler notice a client that went away.
 */
export function toWebRequest(req: IncomingMessage, options: { signal?: AbortSignal } = {}): Request {
  const origin = requestOrigin(req);
  const raw = req.url ?? "/";
  let target: URL;
  try {
    // Origin-form ("/path?q", even "//x/y") is appended as is; absolute-form keeps only its path and query.
    const path = raw.startsWith("/") ? raw : (({ pathname, search }) => `${pathname}${search}`)(new URL(raw));
    target = new URL(`${origin}${path}`);
  } catch {
    throw new BadRequestError("The request target is not a valid URL.");
  }
  const headers = new Headers();
  for (const [name, values] of Object.entries(req.headersDistinct)) {
    if (!values || name.startsWith(":")) continue;
    // Several Cookie headers are one list separated by "; " (RFC 6265 §5.4), never by ", ".
    if (name === "cookie") headers.set(name, values.join("; "));
    else for (const value of values) headers.append(name, value);
  }
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  const init: RequestInit & { duplex?: "half" } = { method, headers };
  if (options.signal) init.signal = options.signal;
  if (hasBody) {
    init.body = Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>;
    // Required by the fetch spec for a streamed request body.
    init.duplex = "half";
  }
  // The socket's address, for the rate limiter's per-client limits (behind a proxy, see `trustProxy`).
  return setClientAddress(new Request(target, init), req.socket.remoteAddress);
}

/**
 * Writes a web `Response` to `res`: status, every header, each `Set-Cookie` as its own header
 * line (never folded into one), then the body, streamed. A HEAD request gets no body.
 */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  const grouped = new Map<string, string[]>();
  response.headers.forEach((value, name) => {
    if (name === "set-cookie") return;
    grouped.set(name, [...(grouped.get(name) ?? []), value]);
  });
  for (const [name, values] of grouped) res.setHeader(name, values.length === 1 ? values[0]! : values);
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);

  if (!response.body || res.req.method === "HEAD") {
    await response.body?.cancel();
    res.end();
    return;
  }
  await pipeline(Readable.fromWeb(response.body as unknown as NodeReadableStream<Uint8Array>), res);
}

/** Options of `toNodeListener`. */
export interface NodeListenerOptions {
  /** Called with anything the handler throws; the client gets a bare 500. Default: `console.error`. */
  onError?: (error: unknown) => void;
}

/** A `node:http` request listener serving `handler`. */
export function toNodeListener(handler: FetchHandler, options: NodeListenerOptions = {}): RequestListener {
  const onError = options.onError ?? ((error: unknown) => console.error("[demo] request failed:", error));
  return (req, res) => {
    void serve(req, res, handler, onError);
  };
}

async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  handler: FetchHandler,
  onError: (error: unknown) => void,
): Promise<void> {
  const controller = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  let request: Request;
  try {
    request = toWebRequest(req, { signal: controller.signal });
  } catch (error) {
    if (error instanceof BadRequestError) {
      res.writeHead(400, { "content-type": "text/plain; charset=utf-8" }).end(`${error.message}\n`);
    } else {
      onError(error);
      res.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end("Internal Server Error\n");
    }
    return;
  }
  try {
    await sendWebResponse(res, await handler(request));
  } catch (error) {
    // A client that disconnects mid-response is not a server fault.
    if (controller.signal.aborted) return;
    onError(error);
    if (res.headersSent) res.destroy();
    else res.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end("Internal Server Error\n");
  }
}
