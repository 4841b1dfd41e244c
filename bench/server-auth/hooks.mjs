// Loader hooks for bench/server-auth.ts: `next/headers` (bare or with `.js`) resolves to the bench's
// request scope (./next-headers.mjs), for appauth/next and next-auth alike; every other module is Next's own.
const scope = new URL("./next-headers.mjs", import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if (specifier === "next/headers" || specifier === "next/headers.js") return { url: scope, shortCircuit: true };
  return nextResolve(specifier, context);
}
