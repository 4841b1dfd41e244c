/** The app on node:http (Node 20, 22, 24): each request becomes a web `Request`, the `Response` is written back. */
import { createServer } from "node:http";
import { Readable } from "node:stream";
import { createApp } from "./app.mjs";
import { redisStore } from "./redis-store.mjs";
import { readSettings } from "./settings.mjs";

const settings = readSettings((name) => process.env[name]);
const handle = createApp(settings, redisStore(settings));

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined) headers.append(name, one);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const request = new Request(url, { method: req.method, headers, body: hasBody ? Readable.toWeb(req) : undefined, duplex: "half" });
  const response = await handle(request);
  const out = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") out[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) out["set-cookie"] = cookies;
  res.writeHead(response.status, out);
  res.end(Buffer.from(await response.arrayBuffer()));
});
server.listen(Number(process.env.PORT), "127.0.0.1", () => console.log(`listening ${server.address().port}`));
