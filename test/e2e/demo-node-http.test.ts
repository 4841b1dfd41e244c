/**
 * demo/node-http.ts over a real socket: what a handler sees of a Node request, and what a client
 * sees of the handler's Response. No browser needed.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toNodeListener, type FetchHandler } from "../../demo/node-http.js";
import { rawRequest } from "../helpers/raw-http.js";

interface Seen {
  url: string;
  method: string;
  cookie: string | null;
  body: string;
}

describe("the demo's node:http bridge", () => {
  let server: Server;
  let port: number;
  let seen: Seen | undefined;

  const handler: FetchHandler = async (request) => {
    seen = { url: request.url, method: request.method, cookie: request.headers.get("cookie"), body: await request.text() };
    const headers = new Headers({ "content-type": "text/plain", "x-demo": "1" });
    headers.append("set-cookie", "a=1; Path=/; HttpOnly");
    headers.append("set-cookie", "b=2; Path=/; Expires=Wed, 21 Oct 2037 07:28:00 GMT");
    if (new URL(request.url).pathname === "/throw") throw new Error("handler failed on purpose");
    return new Response(`echo:${seen.body}`, { status: 201, headers });
  };

  beforeAll(async () => {
    server = createServer(toNodeListener(handler, { onError: () => {} }));
    await new Promise<void>((resolve) => server.listen(0, "localhost", resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("gives the handler the full URL built from the Host header, path and query kept as sent", async () => {
    await rawRequest(port, { path: "//x/y?q=1&r=%2F", headers: { host: `localhost:${port}` } });
    expect(seen?.url).toBe(`http://localhost:${port}//x/y?q=1&r=%2F`);
  });

  it("streams a POST body to the handler and its Response back with status, headers and body", async () => {
    const body = "x=".concat("z".repeat(200_000));
    const res = await rawRequest(port, {
      method: "POST",
      path: "/post",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
    });
    expect(seen?.method).toBe("POST");
    expect(seen?.body).toBe(body);
    expect(res.status).toBe(201);
    expect(res.headers["x-demo"]).toBe("1");
    expect(res.body).toBe(`echo:${body}`);
  });

  it("sends each Set-Cookie as its own header line, never folded", async () => {
    const res = await rawRequest(port, {});
    expect(res.headers["set-cookie"]).toEqual(["a=1; Path=/; HttpOnly", "b=2; Path=/; Expires=Wed, 21 Oct 2037 07:28:00 GMT"]);
  });

  it("joins several Cookie header lines with '; ' so every cookie stays readable", async () => {
    await rawRequest(port, { headers: { cookie: ["a=1", "b=2"] } });
    expect(seen?.cookie).toBe("a=1; b=2");
  });

  it("answers a HEAD request with the headers and no body", async () => {
    const res = await rawRequest(port, { method: "HEAD" });
    expect(res.status).toBe(201);
    expect(res.body).toBe("");
  });

  it("refuses a Host header that is not a bare host with 400, without calling the handler", async () => {
    seen = undefined;
    const res = await rawRequest(port, { headers: { host: "evil.example/path" } });
    expect(res.status).toBe(400);
    expect(seen).toBeUndefined();
  });

  it("answers a bare 500 when the handler throws, and keeps serving", async () => {
    const res = await rawRequest(port, { path: "/throw" });
    expect(res.status).toBe(500);
    expect(res.body).toBe("Internal Server Error\n");
    expect((await rawRequest(port, {})).status).toBe(201);
  });
});
