// The examples' shared icon (examples/shared/favicon.svg), at /favicon.svg; next.config.mjs sends
// /favicon.ico here too, for pages without the layout's <link rel="icon"> (the pages router's).
import { readFile } from "node:fs/promises";
import { join } from "node:path";

export const dynamic = "force-static";

export async function GET(): Promise<Response> {
  const svg = await readFile(join(process.cwd(), "..", "shared", "favicon.svg"));
  return new Response(svg, { headers: { "Content-Type": "image/svg+xml", "Cache-Control": "public, max-age=86400" } });
}
