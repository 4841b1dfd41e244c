/**
 * The 1 MiB body ceiling counts bytes as they arrive (issue 24, item 5). A body with no
 * Content-Length (chunked, streamed) or with one that lies is read only until it passes the
 * ceiling; then the stream is cancelled and the request answered 413 with a typed error — in
 * process, and over real HTTP through the node:http bridge (demo/node-http.ts) and through h3 on
 * Node, as SolidStart serves (whose body stream throws, uncaught, when cancelled).
 */
import { once } from "node:events";
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createApp, eventHandler, toNodeListener as h3Listener, toWebRequest } from "h3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toNodeListener } from "../../../demo/node-http.js";
import ReactiveAuth from "../../../integrations/solid-start/index.js";
import { Auth } from "../../../src/handler.js";
import { BASE_URL, testConfig } from "../../helpers/config.js";

const MiB = 1024 * 1024;
const CHUNK = 64 * 1024;

/** A body of `total` bytes in 64 KiB chunks, pulled on demand; `pulled` says how many the reader took. */
function countedBody(total: number): { stream: ReadableStream<Uint8Array>; pulled: () => number; cancelled: () => boolean } {
  const chunk = new Uint8Array(CHUNK).fill("a".charCodeAt(0));
  let sent = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (sent >= total) return controller.close();
        sent += CHUNK;
        controller.enqueue(chunk);
      },
      cancel() {
        cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => sent, cancelled: () => cancelled };
}

function post(body: ReadableStream<Uint8Array> | string, headers: Record<string, string> = {}): Request {
  return new Request(`${BASE_URL}/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body,
    duplex: "half",
  } as RequestInit);
}

describe("a POST body past the 1 MiB ceiling, in process", () => {
  it("is read only to just past the ceiling when it streams with no Content-Length, then answered 413", async () => {
    const body = countedBody(300 * MiB);
    const response = await Auth(post(body.stream), testConfig());
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: "PayloadTooLarge" });
    expect(body.pulled()).toBeLessThanOrEqual(MiB + 2 * CHUNK);
    expect(body.cancelled()).toBe(true);
  });

  it("is read only to just past the ceiling when its Content-Length claims a small body", async () => {
    const body = countedBody(50 * MiB);
    const response = await Auth(post(body.stream, { "content-length": "120" }), testConfig());
    expect(response.status).toBe(413);
    expect(body.pulled()).toBeLessThanOrEqual(MiB + 2 * CHUNK);
  });

  it("is not read at all when its Content-Length declares more than the ceiling", async () => {
    const body = countedBody(50 * MiB);
    const response = await Auth(post(body.stream, { "content-length": String(2 * MiB) }), testConfig());
    expect(response.status).toBe(413);
    expect(body.pulled()).toBe(0);
  });

  it("answers a browser with the error page, typed PayloadTooLarge, not a crash", async () => {
    const config = testConfig();
    const response = await Auth(post(countedBody(5 * MiB).stream, { accept: "text/html" }), config);
    expect(response.status).toBe(413);
    const page = await response.text();
    expect(page).toContain('data-error-type="PayloadTooLarge"');
    expect(page).not.toMatch(/at .*\.ts:\d+/);
    expect(config.logger.codes("error")).toEqual([]);
  });

  it("still reads a small streamed body whole, as a form", async () => {
    const text = "csrfToken=x&username=ada";
    const chunks = [text.slice(0, 5), text.slice(5)].map((part) => new TextEncoder().encode(part));
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    // Read, then refused for its CSRF token: a redirect, not 413.
    const response = await Auth(post(stream), testConfig());
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toContain("error=MissingCSRF");
  });
});

/** POSTs `total` bytes chunked to `port`; resolves with the answer, whenever it comes. */
function uploadChunked(port: number, total: number): Promise<{ status: number; text: Promise<string> }> {
  const chunk = Buffer.alloc(CHUNK, "a");
  let written = 0;
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: "127.0.0.1",
      port,
      method: "POST",
      path: "/auth/callback/credentials",
      headers: { "content-type": "application/x-www-form-urlencoded", "transfer-encoding": "chunked" },
    });
    req.once("response", (response: IncomingMessage) => {
      const text = (async () => {
        let out = "";
        for await (const part of response) out += String(part);
        return out;
      })();
      resolve({ status: response.statusCode!, text });
    });
    // The server may close the connection on the unread rest: that ends the upload, not the test.
    req.on("error", (error) => (written >= total ? reject(error) : undefined));
    const pump = (): void => {
      while (written < total) {
        written += CHUNK;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      req.end();
    };
    pump();
  });
}

describe("a chunked POST of 50 MiB over HTTP through the node:http bridge", () => {
  let server: Server;
  let port: number;
  /** Bytes the server had read from the connection when the library answered. */
  const readWhenAnswered: number[] = [];

  beforeAll(async () => {
    const listener = toNodeListener(async (request) => {
      const response = await Auth(request, testConfig());
      return response;
    });
    server = createServer((req, res) => {
      const socket = req.socket;
      res.once("finish", () => readWhenAnswered.push(socket.bytesRead));
      listener(req, res);
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("answers 413 after reading little more than the ceiling", async () => {
    const heapBefore = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    const response = await uploadChunked(port, 50 * MiB);
    expect(response.status).toBe(413);
    expect(JSON.parse(await response.text)).toMatchObject({ error: "PayloadTooLarge" });
    expect(readWhenAnswered).toHaveLength(1);
    // The ceiling, plus what the socket and stream buffers hold: far from the 50 MiB sent.
    expect(readWhenAnswered[0]).toBeLessThan(4 * MiB);
    const heapAfter = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    expect(heapAfter - heapBefore).toBeLessThan(30 * MiB);
  });
});

describe("a chunked POST of 20 MiB to SolidStart's handler on h3", () => {
  it("answers 413, and the process hears no uncaught exception from h3's cancelled stream", async () => {
    const uncaught: unknown[] = [];
    const hear = (error: unknown): number => uncaught.push(error);
    process.on("uncaughtException", hear);
    const auth = ReactiveAuth({ ...testConfig(), prefix: "/auth" });
    const app = createApp();
    app.use(eventHandler(async (event) => (await auth.POST({ request: toWebRequest(event), clientAddress: "127.0.0.1" })) ?? new Response(null, { status: 404 })));
    const server = createServer(h3Listener(app)).listen(0, "127.0.0.1");
    try {
      await once(server, "listening");
      const response = await uploadChunked((server.address() as AddressInfo).port, 20 * MiB);
      expect(response.status).toBe(413);
      // What the client still sends after the answer reaches h3's stream now.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(uncaught.map(String)).toEqual([]);
    } finally {
      process.off("uncaughtException", hear);
      server.closeAllConnections();
      server.close();
    }
  });
});
