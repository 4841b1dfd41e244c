/**
 * The middleware runs on the edge runtime, and Next bundles everything `appauth/next` can reach —
 * dynamic `import()`s included — into the one edge file, refusing to build when a module uses
 * `eval`/`new Function` (reflect-metadata, under @simplewebauthn/server) and warning on Node-only
 * code (nodemailer). These tests walk the import graph the way the bundler does and keep it free of
 * Node built-ins, mail and database drivers, adapters and the WebAuthn library.
 */
import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Auth } from "../../../src/index.js";
import { testConfig } from "../../helpers/config.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** Imports that survive compilation: `import type` and `export type` are erased, `import()` is kept. */
const STATIC = /(?:^|[\s;])(?:import|export)\s+(type\s+)?(?:[\w*\s{},$]*?\s+from\s+)?["']([^"']+)["']/g;
const DYNAMIC = /import\(\s*["']([^"']+)["']\s*\)/g;

interface Graph {
  files: Set<string>;
  /** Bare specifiers (packages, `node:` built-ins) and the file that imports each. */
  packages: Map<string, string>;
}

/**
 * Every module reachable from `entry` (a repository path), following `.js` imports to their `.ts`
 * sources; with `dynamic: false`, only what loads before any `import()` runs.
 */
function importGraph(entry: string, { dynamic = true } = {}): Graph {
  const graph: Graph = { files: new Set(), packages: new Map() };
  const visit = (file: string) => {
    if (graph.files.has(file)) return;
    graph.files.add(file);
    const source = readFileSync(join(ROOT, file), "utf8").replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, "");
    const specifiers = [
      ...[...source.matchAll(STATIC)].filter((m) => !m[1]).map((m) => m[2]!),
      ...(dynamic ? [...source.matchAll(DYNAMIC)].map((m) => m[1]!) : []),
    ];
    for (const specifier of specifiers) {
      if (!specifier.startsWith(".")) {
        if (!graph.packages.has(specifier)) graph.packages.set(specifier, file);
        continue;
      }
      visit(relative(ROOT, join(ROOT, dirname(file), specifier)).replace(/\.js$/, ".ts"));
    }
  };
  visit(entry);
  return graph;
}

describe("the module graph of appauth/next (what the middleware bundle holds)", () => {
  const graph = importGraph("integrations/next/index.ts");

  it("reaches the session machines, the handler and the server operations", () => {
    expect(graph.files).toContain("src/server/session-read.ts");
    expect(graph.files).toContain("src/handler.ts");
    expect(graph.files).toContain("src/flows/webauthn.ts");
  });

  it("imports no Node built-in", () => {
    expect([...graph.packages.keys()].filter((p) => p.startsWith("node:") || ["fs", "net", "tls", "crypto", "http"].includes(p))).toEqual([]);
  });

  it("imports no adapter, database driver, mail library or the WebAuthn library", () => {
    expect([...graph.files].filter((f) => f.startsWith("src/adapters/"))).toEqual([]);
    const forbidden = ["nodemailer", "better-sqlite3", "kysely", "pg", "mysql2", "ioredis", "@simplewebauthn/server"];
    expect([...graph.packages.keys()].filter((p) => forbidden.some((f) => p === f || p.startsWith(`${f}/`)))).toEqual([]);
  });

  // Bare `next/...` specifiers: Turbopack resolves only those to the modules of the running layer;
  // `next/navigation.js` sends it to a vendored file it cannot find.
  it("imports only Next's own modules, by their bare names, and the core's runtime dependencies", () => {
    expect([...graph.packages.keys()].filter((p) => !/^(next\/(server|headers|navigation)$|xstate$|jose$|oauth4webapi$|uqr$|zod$)/.test(p))).toEqual([]);
  });
});

describe("the module graph of appauth/next/middleware (issue 19: a middleware that only reads sessions)", () => {
  const graph = importGraph("integrations/next/middleware.ts");

  it("reaches the session machines and the guard", () => {
    for (const file of ["src/server/session-read.ts", "src/flows/session.ts", "src/flows/database-session.ts", "src/server/guard.ts"]) {
      expect(graph.files).toContain(file);
    }
  });

  it("reaches no route handler, sign-in flow, page, OAuth client or token refresh, even through import()", () => {
    const reached = [...graph.files].filter(
      (file) =>
        ["src/handler.ts", "src/server/actions.ts", "src/flows/token-refresh.ts", "src/flows/token-refresh-loader.ts", "src/flows/pages.ts"].includes(file) ||
        // The transport rule (src/oauth/transport.ts), the FAPI option checks (src/oauth/fapi-profile.ts) and
        // the dpop option's check (src/oauth/dpop-options.ts), none importing a protocol library, are config
        // validation, not the OAuth client.
        (/^src\/(pages|oauth|email|providers|adapters)\//.test(file) &&
          !["src/oauth/transport.ts", "src/oauth/fapi-profile.ts", "src/oauth/dpop-options.ts"].includes(file)) ||
        /^src\/flows\/(oauth|email|webauthn|signout|credentials-signin|backchannel-logout)\.ts$/.test(file),
    );
    expect(reached).toEqual([]);
  });

  it("imports no package but xstate and Next's own modules: no JOSE, OAuth or WebAuthn library", () => {
    expect([...graph.packages.keys()].filter((p) => !p.startsWith("next/"))).toEqual(["xstate"]);
  });
});

describe("WebAuthn providers carry the ceremony's implementation", () => {
  it("refuses, at configuration time, a hand-written WebAuthn provider that does not bring it", async () => {
    const config = testConfig({
      experimental: { enableWebAuthn: true },
      providers: [{ id: "passkey", name: "Passkey", type: "webauthn" }],
      adapter: {},
    });
    const response = await Auth(new Request("http://localhost:3000/auth/providers"), config);
    expect(response.status).toBe(500);
    const logged = config.logger.entries.map((e) => String(e.message[0]));
    expect(logged.some((m) => m.includes("WebAuthn() or Passkey()"))).toBe(true);
  });
});

describe("what a cold start loads before its first GET /session (issue 19)", () => {
  const graph = importGraph("src/index.ts", { dynamic: false });

  it("reaches the session flows and the config validation", () => {
    expect(graph.files).toContain("src/flows/session.ts");
    expect(graph.files).toContain("src/config/schema.ts");
  });

  it("leaves the sign-in flows, the token refresh and the OAuth client to the requests that use them", () => {
    for (const file of ["src/flows/oauth.ts", "src/flows/email.ts", "src/flows/webauthn.ts", "src/flows/signout.ts", "src/flows/token-refresh.ts", "src/oauth/client.ts"]) {
      expect(graph.files).not.toContain(file);
    }
  });

  it("imports no JOSE, OAuth, WebAuthn or schema library, only xstate", () => {
    expect([...graph.packages.keys()].filter((p) => !p.startsWith("node:"))).toEqual(["xstate"]);
  });
});
