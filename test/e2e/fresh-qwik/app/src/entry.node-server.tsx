// The node-server adapter's entry, as `qwik add node-server` writes it (diagnostics left out).
import { createQwikCity } from "@builder.io/qwik-city/middleware/node";
import qwikCityPlan from "@qwik-city-plan";
import { createServer } from "node:http";
import render from "./entry.ssr";

const PORT = process.env.PORT ?? 3004;
const { router, notFound, staticFile } = createQwikCity({ render, qwikCityPlan, static: { cacheControl: "public, max-age=31536000, immutable" } });

createServer((req, res) => {
  staticFile(req, res, () => {
    router(req, res, () => {
      notFound(req, res, () => {});
    });
  });
}).listen(PORT, () => {
  console.log(`Node server listening on http://localhost:${PORT}`);
});
