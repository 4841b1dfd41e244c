/**
 * docs/getting-started/node.md followed as written (issue 26): an empty project made as the guide's
 * install block says (`type: module`, appauth packed by `npm pack`, tsx), every file of the guide's
 * titled code blocks (its .env too), the server started with the guide's "run" command, and then
 * over HTTP, as a browser would, with a cookie jar: a refused password, a credentials sign-in, the
 * session read by the guide's own pages and by `/auth/session`, and the sign-out. The guide's pages
 * are plain HTML with the library's built-in sign-in page, so no browser is needed.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isDeletion, setCookiesOf } from "../helpers/set-cookie.js";
import { createFreshApp, packLibrary, startServer, type FreshApp, type FreshAppSpec, type StartedApp } from "./fresh-next/harness.js";
import { block, guideBlocks, installedPackages, writeGuideFiles } from "./guide-blocks.js";

const SETUP_TIMEOUT = 300_000;
const blocks = await guideBlocks("getting-started/node.md");

/** The guide's project: `npm init -y` and `npm pkg set type=module`, then what its install block installs, at pinned versions. */
const SPEC: FreshAppSpec = {
  name: "guide-node",
  manifest: { type: "module" },
  scripts: {},
  dependencies: {},
  devDependencies: { tsx: "4.23.15" },
};

/** The cookies a browser would hold for the server: set by `Set-Cookie`, deleted by a past expiry. */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(response: Response): void {
    for (const cookie of setCookiesOf(response)) {
      if (isDeletion(cookie)) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.raw);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, raw]) => `${name}=${raw}`).join("; ");
  }

  names(): string[] {
    return [...this.cookies.keys()];
  }
}

describe("docs/getting-started/node.md followed as written", () => {
  let packDir = "";
  let template = "";
  let app: FreshApp | undefined;
  let server: StartedApp | undefined;
  let url = "";
  const jar = new CookieJar();

  /** A request to the guide's server with the jar's cookies, redirects not followed; the jar keeps what it sets. */
  async function request(path: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const headers = new Headers({ cookie: jar.header() });
    if (init.form) headers.set("content-type", "application/x-www-form-urlencoded");
    const response = await fetch(`${url}${path}`, {
      method: init.method ?? (init.form ? "POST" : "GET"),
      headers,
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
      redirect: "manual",
    });
    jar.take(response);
    return response;
  }

  const heading = async (response: Response) => /<h1>(.*?)<\/h1>/.exec(await response.text())?.[1];
  const csrfToken = async () => ((await (await request("/auth/csrf")).json()) as { csrfToken: string }).csrfToken;
  const session = async () => (await request("/auth/session")).json() as Promise<{ user?: { name?: string; email?: string } } | null>;

  beforeAll(async () => {
    packDir = await mkdtemp(join(tmpdir(), "appauth-pack-"));
    template = await mkdtemp(join(tmpdir(), "appauth-guide-node-"));
    await writeGuideFiles(blocks, template);
    app = await createFreshApp({ ...SPEC, template }, await packLibrary(packDir));
    // The "run" block as typed: `npx tsx <tsx's arguments>`, run with the installed tsx's CLI.
    const [npx, tsx, ...args] = block(blocks, "run").code.trim().split(/\s+/);
    expect([npx, tsx]).toEqual(["npx", "tsx"]);
    const dir = app.dir;
    server = await startServer(app, {
      name: "the guide's server.ts",
      args: () => [join(dir, "node_modules", "tsx", "dist", "cli.mjs"), ...args],
      // A fresh secret over the .env's placeholder (a variable in the environment wins over the file), and the harness's AUTH_URL.
      env: { AUTH_SECRET: crypto.randomUUID() + crypto.randomUUID() },
      ready: "/auth/providers",
      portVariable: "PORT",
    });
    url = server.url;
  }, SETUP_TIMEOUT);

  afterAll(async () => {
    await server?.close();
    await app?.dispose();
    await rm(packDir, { recursive: true, force: true });
    await rm(template, { recursive: true, force: true });
  });

  it("shows every file it names, makes an ES module project, and installs what the test installs", () => {
    const titles = blocks.map((b) => b.title);
    for (const file of [".env", "users.ts", "auth.ts", "node-http.ts", "server.ts"]) expect(titles).toContain(file);
    expect(block(blocks, "setup").code.trim().split("\n")).toEqual(["npm init -y", "npm pkg set type=module"]);
    const installed = installedPackages(block(blocks, "install").code);
    expect(installed.sort()).toEqual(["appauth", "tsx"]);
    for (const name of installed.filter((n) => n !== "appauth")) expect({ ...SPEC.dependencies, ...SPEC.devDependencies }).toHaveProperty(name);
  });

  it("sends a signed-out visitor of /private to the sign-in page, which offers the username and password form", async () => {
    expect(await heading(await request("/"))).toBe("Not signed in");
    const guarded = await request("/private");
    expect(guarded.status).toBe(303);
    expect(guarded.headers.get("location")).toBe(`${url}/auth/signin?callbackUrl=%2Fprivate`);
    const signInPage = await (await request("/auth/signin?callbackUrl=%2Fprivate")).text();
    expect(signInPage).toMatch(/Username/);
    expect(signInPage).toMatch(/type="password"/);
  });

  it("refuses a wrong password without a session", async () => {
    const refused = await request("/auth/callback/credentials", {
      form: { csrfToken: await csrfToken(), username: "demo", password: "wrong", callbackUrl: "/private" },
    });
    expect(refused.status).toBe(302);
    expect(new URL(refused.headers.get("location")!).searchParams.get("error")).toBe("CredentialsSignin");
    expect(jar.names().filter((name) => name.endsWith("session-token"))).toEqual([]);
    expect(await session()).toBeNull();
  });

  it("signs in with the guide's demo credentials, greets on /private and in /auth/session, and signs out", async () => {
    const signedIn = await request("/auth/callback/credentials", {
      form: { csrfToken: await csrfToken(), username: "demo", password: "correct horse battery staple", callbackUrl: "/private" },
    });
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("location")).toBe(`${url}/private`);
    expect(jar.names().filter((name) => name.endsWith("session-token"))).toHaveLength(1);

    expect(await heading(await request("/private"))).toBe("Hello Demo User");
    expect(await heading(await request("/"))).toBe("Signed in as Demo User");
    expect(await session()).toMatchObject({ user: { name: "Demo User", email: "demo@example.com" } });

    const signedOut = await request("/auth/signout", { form: { csrfToken: await csrfToken() } });
    expect(signedOut.status).toBe(302);
    expect(jar.names().filter((name) => name.endsWith("session-token"))).toEqual([]);
    expect(await session()).toBeNull();
    expect(await heading(await request("/"))).toBe("Not signed in");
    expect((await request("/private")).status).toBe(303);
  });
});
