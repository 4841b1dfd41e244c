/**
 * One HTTP/1.1 exchange over a fresh socket, with node:http rather than fetch: headers arrive
 * exactly as sent (fetch would normalise them), and `from` picks the local address the server sees
 * (any of 127.0.0.0/8 on Linux), so one test can be many visitors.
 */
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface RawRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string | string[]>;
  body?: string;
  /** The host to connect to. Default `localhost`. */
  host?: string;
  /** The local address to connect from. */
  from?: string;
}

export function rawRequest(port: number, options: RawRequest): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: options.host ?? "localhost",
        port,
        method: options.method ?? "GET",
        path: options.path ?? "/",
        headers: options.headers ?? {},
        ...(options.from ? { localAddress: options.from, agent: false } : {}),
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}
