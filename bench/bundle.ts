/**
 * Middleware bundle size (issue 19): the same minimal Next.js middleware (bench/middleware/*.mjs: a
 * Credentials provider and an `authorized` callback) bundled with appauth and with next-auth, the
 * same way, and their sizes compared. appauth's is built from its middleware entry
 * (`appauth/next/middleware`, as the README sets it up), and for comparison also from `AppAuth(config).auth`
 * of the full entry (`appauth/next`), whose bundle holds every flow behind its `import()`s. A full `next build` of two apps takes minutes, so the bench
 * bundles with esbuild as Next's edge compiler resolves packages — the `edge-light`, `worker`,
 * `browser` and `import` conditions, ESM, minified — with Next itself (`next/*`) left out of both:
 * it is the same in either app. Two figures, raw and gzipped: everything the middleware ships
 * (every chunk, what `next build` counts), and the entry chunk with the chunks it imports — what a middleware
 * invocation loads, the modules behind `import()` (the sign-in flows, the route handler) split off.
 */
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));

export interface BundleSize {
  bytes: number;
  gzip: number;
  /** The entry chunk and the chunks it imports statically. */
  entryBytes: number;
  entryGzip: number;
}

export interface BundleResult {
  /** From `appauth/next/middleware`. */
  appauth: BundleSize;
  /** From `appauth/next` (`AppAuth(config).auth`). */
  appauthFull: BundleSize;
  nextAuth: BundleSize;
  /** next-auth's size over appauth's (>1 = appauth smaller), of everything and of the entry chunk, gzipped. */
  gzipRatio: number;
  entryGzipRatio: number;
}

async function bundle(entry: string): Promise<BundleSize> {
  const result = await build({
    splitting: true,
    outdir: `${root}/bench/.bundle-out`,
    entryPoints: [`${root}/bench/middleware/${entry}`],
    absWorkingDir: root,
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    conditions: ["edge-light", "worker", "browser", "import", "module"],
    mainFields: ["browser", "module", "main"],
    minify: true,
    external: ["next", "next/*"],
    // Next's edge compiler refuses Node built-ins outside its allow-list; a library that imports one anyway fails the bench.
    logLevel: "silent",
    metafile: true,
    define: { "process.env.NODE_ENV": '"production"' },
  });
  const files = result.outputFiles.filter((file) => file.path.endsWith(".js"));
  const outputs = result.metafile.outputs;
  const byPath = new Map(files.map((file) => [file.path.slice(root.length), file.contents]));
  // The entry chunk and the chunks it imports statically: what runs before any import() is awaited.
  const start = Object.keys(outputs).find((path) => outputs[path]!.entryPoint === `bench/middleware/${entry}`)!;
  const loaded = new Set<string>();
  const visit = (path: string) => {
    if (loaded.has(path)) return;
    loaded.add(path);
    for (const dependency of outputs[path]!.imports) if (dependency.kind === "import-statement" && !dependency.external) visit(dependency.path);
  };
  visit(start);
  const gzip = (code: Uint8Array) => gzipSync(code).byteLength;
  const sum = (codes: Uint8Array[], measure: (code: Uint8Array) => number) => codes.reduce((total, code) => total + measure(code), 0);
  const entryCodes = [...loaded].map((path) => byPath.get(path)!);
  return {
    bytes: sum(files.map((file) => file.contents), (code) => code.byteLength),
    gzip: sum(files.map((file) => file.contents), gzip),
    entryBytes: sum(entryCodes, (code) => code.byteLength),
    entryGzip: sum(entryCodes, gzip),
  };
}

export async function measureBundles(): Promise<BundleResult> {
  const appauth = await bundle("appauth.mjs");
  const appauthFull = await bundle("appauth-full.mjs");
  const nextAuth = await bundle("next-auth.mjs");
  return { appauth, appauthFull, nextAuth, gzipRatio: nextAuth.gzip / appauth.gzip, entryGzipRatio: nextAuth.entryGzip / appauth.entryGzip };
}

const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;

const size = (bytes: number, gzip: number) => `${kB(bytes)} (${kB(gzip)} gzip)`;

export function describeBundles(r: BundleResult): string {
  return [
    "Middleware bundle, appauth/next/middleware vs next-auth (esbuild, edge conditions, minified, next/* external; >1 = appauth smaller):",
    `  every chunk: appauth ${size(r.appauth.bytes, r.appauth.gzip)}, next-auth ${size(r.nextAuth.bytes, r.nextAuth.gzip)}: ${r.gzipRatio.toFixed(2)}x gzipped`,
    `  entry chunk and its static imports: appauth ${size(r.appauth.entryBytes, r.appauth.entryGzip)}, next-auth ${size(r.nextAuth.entryBytes, r.nextAuth.entryGzip)}: ${r.entryGzipRatio.toFixed(2)}x gzipped`,
    `  (appauth's full entry, AppAuth(config).auth of appauth/next: every chunk ${size(r.appauthFull.bytes, r.appauthFull.gzip)}, ` +
      `entry and static imports ${size(r.appauthFull.entryBytes, r.appauthFull.entryGzip)})`,
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(describeBundles(await measureBundles()));
}
