/**
 * A reverse proxy on loopback for the client-address tests: it appends the address each request
 * came from to X-Forwarded-For, as nginx's `$proxy_add_x_forwarded_for` does, and passes the Host
 * header on unchanged. Visitors connect to it from distinct loopback addresses (`visitor(n)`, any
 * of 127.0.0.0/8 on Linux), so one test can be many visitors while the app behind only ever sees
 * the proxy's address on its socket.
 */
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** Starts `server` on a free loopback port; resolves with the port. */
export async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/**
 * A reverse proxy to `appPort` on 127.0.0.1 that appends the address each request came from to
 * X-Forwarded-For (not yet listening). `appPort` may be a function, for an app that must know the
 * proxy's address (its public URL) before it starts.
 */
export function reverseProxy(appPort: number | (() => number)): Server {
  const upstreamPort = typeof appPort === "number" ? () => appPort : appPort;
  return createServer((req, res) => {
    const seen = req.socket.remoteAddress!;
    const before = req.headers["x-forwarded-for"];
    const headers = { ...req.headers, "x-forwarded-for": before ? `${String(before)}, ${seen}` : seen };
    const upstream = httpRequest({ host: "127.0.0.1", port: upstreamPort(), method: req.method, path: req.url, headers, agent: false }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
}

/** A listening proxy in front of `appPort`: the port visitors use, and how to stop it. */
export interface RunningProxy {
  port: number;
  close(): Promise<void>;
}

/** `reverseProxy(appPort)`, listening. */
export async function startReverseProxy(appPort: number | (() => number)): Promise<RunningProxy> {
  const proxy = reverseProxy(appPort);
  const port = await listen(proxy);
  return { port, close: () => new Promise<void>((resolve) => proxy.close(() => resolve())) };
}

/** The loopback address of visitor `n` (0 ≤ n < 62,500). */
export const visitor = (n: number): string => `127.0.${1 + Math.floor(n / 250)}.${1 + (n % 250)}`;
