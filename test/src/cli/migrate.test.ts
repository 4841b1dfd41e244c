/**
 * `npx appauth migrate` on a typical next-auth v5 app (test/fixtures/nextauth-v5-app): every import
 * moves to appauth, the renamed identifiers follow, what it cannot move is reported, a second run
 * changes nothing, and the migrated app type-checks against appauth's own types.
 */
import { cp, mkdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main, migrate } from "../../../src/cli/index.js";
import { migrateSource as migrateWith } from "../../../src/cli/migrate.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const FIXTURE = join(ROOT, "test/fixtures/nextauth-v5-app");
const providers = new Set(["github", "google", "gitlab"]);
const migrateSource = (source: string, ids: ReadonlySet<string>) => migrateWith(source, ids, { ts });

describe("migrateSource", () => {
  it("moves next-auth's and @auth/core's entry points to appauth's", () => {
    const { text, changes } = migrateSource(
      [
        `import NextAuth, { type NextAuthConfig } from "next-auth";`,
        `import { useSession } from 'next-auth/react';`,
        `import { getToken } from "next-auth/jwt";`,
        `import GitHub from "next-auth/providers/github";`,
        `import type { AdapterUser } from "@auth/core/adapters";`,
        `import { Auth } from "@auth/core";`,
        `export { auth as middleware } from "next-auth";`,
        `const lazy = await import("next-auth/providers/google");`,
        `const cjs = require("@auth/core/jwt");`,
        `export default NextAuth({ providers: [GitHub] }) satisfies unknown as NextAuthConfig;`,
      ].join("\n"),
      providers,
    );
    expect(text).toBe(
      [
        `import AppAuth, { type AppAuthConfig } from "appauth/next";`,
        `import { useSession } from 'appauth/react';`,
        `import { getToken } from "appauth/jwt";`,
        `import GitHub from "appauth/providers/github";`,
        `import type { AdapterUser } from "appauth";`,
        `import { Auth } from "appauth";`,
        `export { auth as middleware } from "appauth/next";`,
        `const lazy = await import("appauth/providers/google");`,
        `const cjs = require("appauth/jwt");`,
        `export default AppAuth({ providers: [GitHub] }) satisfies unknown as AppAuthConfig;`,
      ].join("\n"),
    );
    expect(changes).toContain("NextAuth → AppAuth");
  });

  it("points type augmentation at appauth, where Session and JWT are declared", () => {
    const { text } = migrateSource(`declare module "next-auth" {}\ndeclare module "next-auth/jwt" {}\n`, providers);
    expect(text).toBe(`declare module "appauth" {}\ndeclare module "appauth" {}\n`);
  });

  it("renames the Qwik and SolidStart factories with their imports", () => {
    const { text } = migrateSource(`import { QwikAuth$ } from "@auth/qwik";\nexport const a = QwikAuth$(() => ({ providers: [] }));\n`, providers);
    expect(text).toBe(`import { ResumableAuth$ } from "appauth/qwik";\nexport const a = ResumableAuth$(() => ({ providers: [] }));\n`);
    expect(migrateSource(`import { SolidAuth, type SolidAuthConfig } from "@auth/solid-start";`, providers).text).toBe(
      `import { ReactiveAuth, type ReactiveAuthConfig } from "appauth/solid-start";`,
    );
  });

  it("leaves what it cannot move as it is and says why", () => {
    // A provider module appauth has no counterpart for (Auth.js has none by this name either: one added later, or a typo).
    const source = `import ExampleSso from "next-auth/providers/example-sso";\nimport { withAuth } from "next-auth/middleware";\n`;
    const { text, notes } = migrateSource(source, providers);
    expect(text).toBe(source);
    expect(notes).toEqual([expect.stringMatching(/^next-auth\/providers\/example-sso: .*"example-sso"/), expect.stringMatching(/^next-auth\/middleware: .*v4/)]);
  });

  it("touches no file that imports nothing of Auth.js's, and no lookalike", () => {
    for (const source of [
      `import x from "next-auth-extra";\nconst NextAuth = 1;\n`,
      `import y from "@authx/core";\n`,
      `const s = "from 'next-auth'";\n`.replace("from", "FROM"),
    ]) {
      expect(migrateSource(source, providers)).toEqual({ text: source, changes: [], notes: [] });
    }
  });

  it("keeps a local name through an alias when appauth's name is already taken in the file", () => {
    const source = `import { NextAuthConfig } from "next-auth";\nconst AppAuthConfig = {};\nexport const config: NextAuthConfig = AppAuthConfig;\n`;
    expect(migrateSource(source, providers).text).toBe(
      `import { AppAuthConfig as NextAuthConfig } from "appauth/next";\nconst AppAuthConfig = {};\nexport const config: NextAuthConfig = AppAuthConfig;\n`,
    );
  });

  it("keeps the names a file exports while it renames what they refer to", () => {
    const source = `export { NextAuthConfig } from "next-auth";\nimport NextAuth from "next-auth";\nexport { NextAuth };\n`;
    expect(migrateSource(source, providers).text).toBe(
      `export { AppAuthConfig as NextAuthConfig } from "appauth/next";\nimport AppAuth from "appauth/next";\nexport { AppAuth as NextAuth };\n`,
    );
  });

  it("renames what require() and a destructured import() bind, and the types import() names", () => {
    const source = [
      `const { SolidAuth, SolidAuthConfig: Config } = require("@auth/solid-start");`,
      `const { QwikAuth$ } = await import("@auth/qwik");`,
      `type Session = import("next-auth").Session;`,
      `export const handlers = [SolidAuth, QwikAuth$];`,
    ].join("\n");
    expect(migrateSource(source, providers).text).toBe(
      [
        `const { ReactiveAuth, ReactiveAuthConfig: Config } = require("appauth/solid-start");`,
        `const { ResumableAuth$ } = await import("appauth/qwik");`,
        `type Session = import("appauth/next").Session;`,
        `export const handlers = [ReactiveAuth, ResumableAuth$];`,
      ].join("\n"),
    );
  });

  it("keeps published Auth.js adapters", () => {
    const source = `import { PrismaAdapter } from "@auth/prisma-adapter";\n`;
    expect(migrateSource(source, providers).text).toBe(source);
  });
});

describe("npx appauth migrate on a next-auth v5 app", () => {
  const app = join(ROOT, "test/.artifacts/codemod-app");
  const lines: string[] = [];
  let exitCode: number;

  beforeAll(async () => {
    await rm(app, { recursive: true, force: true });
    await mkdir(join(ROOT, "test/.artifacts"), { recursive: true });
    await cp(FIXTURE, app, { recursive: true });
    exitCode = await migrate(app, { log: (line) => lines.push(line) });
  });
  afterAll(() => rm(app, { recursive: true, force: true }));

  it("rewrites every file that imports next-auth, its email providers included", async () => {
    expect(await readFile(join(app, "auth.ts"), "utf8")).toContain(`import AppAuth from "appauth/next";`);
    expect(await readFile(join(app, "middleware.ts"), "utf8")).toContain(`export default AppAuth(authConfig).auth;`);
    expect(await readFile(join(app, "components/user-button.tsx"), "utf8")).toContain(`from "appauth/react"`);
    expect(await readFile(join(app, "types/next-auth.d.ts"), "utf8")).toContain(`declare module "appauth" {`);
    expect(await readFile(join(app, "mail.ts"), "utf8")).toContain(`from "appauth/providers/resend"`);
    expect(await readFile(join(app, "forward-email.ts"), "utf8")).toContain(`from "appauth/providers/forwardemail"`);
    expect(lines.filter((line) => line.startsWith("could not change"))).toEqual([]);
    expect(exitCode).toBe(0);
  });

  it("changes nothing on a second run", async () => {
    const again: string[] = [];
    await migrate(app, { dryRun: true, log: (line) => again.push(line) });
    expect(again.filter((line) => line.startsWith("would change"))).toEqual([]);
  });

  it("leaves an app that type-checks against appauth", { timeout: 180_000 }, () => {
    const appauth = (path: string) => [join(ROOT, path)];
    const files = ["auth.config.ts", "auth.ts", "mail.ts", "middleware.ts", "app/api/auth/[...nextauth]/route.ts", "components/user-button.tsx", "types/next-auth.d.ts"];
    const program = ts.createProgram(
      files.map((file) => join(app, file)),
      {
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        jsx: ts.JsxEmit.ReactJSX,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        target: ts.ScriptTarget.ES2022,
        lib: ["lib.es2023.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
        types: [],
        baseUrl: ROOT,
        paths: {
          appauth: appauth("src/index.ts"),
          "appauth/next": appauth("integrations/next/index.ts"),
          "appauth/react": appauth("integrations/react/index.ts"),
          "appauth/jwt": appauth("src/jwt/index.ts"),
          "appauth/providers/credentials": appauth("src/providers/credentials.ts"),
          "appauth/providers/*": appauth("src/providers/catalog/*.ts"),
        },
      },
    );
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file?.fileName.startsWith(app))
      .map((d) => `${d.file!.fileName.slice(app.length)}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
    expect(problems).toEqual([]);
  });
});

describe("the command line", () => {
  it("answers an unknown command with its usage and exit code 2", async () => {
    expect(await main(["frobnicate"])).toBe(2);
  });
});
