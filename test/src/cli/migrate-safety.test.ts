/**
 * `npx appauth migrate` is safe to run on a real project (issue 24): it writes every file or none,
 * refuses flags it does not know, edits syntax rather than text, leaves what it cannot read alone and
 * says so, and names every folder it did not look into. Each case runs the real command line (bin.ts
 * under tsx) in a child process, on files in a fresh folder.
 */
import { execFile } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { migrate } from "../../../src/cli/index.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const BIN = join(ROOT, "src/cli/bin.ts");
const TSX = pathToFileURL(join(ROOT, "node_modules/tsx/dist/loader.mjs")).href;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `appauth <args>` in `cwd`. `fileSizeLimitKiB` sets RLIMIT_FSIZE for the process (`ulimit -f`):
 * writing past it fails with EFBIG. The tests run as root, where permission bits stop no write, so a
 * file-size limit is the real, unprivileged way to make one write of the batch fail.
 */
function cli(args: string[], options: { cwd: string; fileSizeLimitKiB?: number }): Promise<Run> {
  const limit = options.fileSizeLimitKiB ? `ulimit -f ${options.fileSizeLimitKiB}; ` : "";
  const command = `${limit}exec "$0" --import "${TSX}" "$@"`;
  return new Promise((done) => {
    execFile(
      "bash",
      ["-c", command, process.execPath, BIN, ...args],
      // tsx's on-disk cache would also hit the file-size limit.
      { cwd: options.cwd, env: { ...process.env, TSX_DISABLE_CACHE: "1" } },
      (error, stdout, stderr) => done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

let project: string;

async function put(files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(project, name)), { recursive: true });
    await writeFile(join(project, name), content);
  }
}

const read = (name: string): Promise<string> => readFile(join(project, name), "utf8");

beforeEach(async () => {
  project = await mkdtemp(join(tmpdir(), "appauth-migrate-"));
});
afterEach(() => rm(project, { recursive: true, force: true }));

describe("appauth migrate writes every file or none", () => {
  it("leaves every file unchanged and names the one it cannot write, without a stack trace", async () => {
    const small = `import NextAuth from "next-auth";\nexport const { auth } = NextAuth({ providers: [] });\n`;
    // Larger than the process may write (64 KiB): its new content cannot be written.
    const large = `import { useSession } from "next-auth/react";\n${"// padding\n".repeat(8000)}export { useSession };\n`;
    await put({ "a-auth.ts": small, "b-auth.ts": small, "z-large.ts": large });

    const run = await cli(["migrate", "."], { cwd: project, fileSizeLimitKiB: 64 });

    expect(run.code).not.toBe(0);
    expect(await read("a-auth.ts")).toBe(small);
    expect(await read("b-auth.ts")).toBe(small);
    expect(await read("z-large.ts")).toBe(large);
    expect((await readdir(project)).sort()).toEqual(["a-auth.ts", "b-auth.ts", "z-large.ts"]);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stderr.trim().split("\n")).toEqual([expect.stringMatching(/cannot write z-large\.ts.*nothing was changed/)]);
  });

  it("keeps each file's mode when it puts the new content in place", async () => {
    await put({ "bin/serve.mjs": `#!/usr/bin/env node\nimport { getToken } from "next-auth/jwt";\n` });
    await chmod(join(project, "bin/serve.mjs"), 0o750);
    expect(await migrate(project, { log: () => undefined })).toBe(0);
    expect(await read("bin/serve.mjs")).toBe(`#!/usr/bin/env node\nimport { getToken } from "appauth/jwt";\n`);
    expect((await stat(join(project, "bin/serve.mjs"))).mode & 0o777).toBe(0o750);
    expect(await readdir(join(project, "bin"))).toEqual(["serve.mjs"]);
  });
});

describe("appauth migrate's command line", () => {
  it("refuses a flag it does not know, with its usage, and writes nothing", async () => {
    const source = `import NextAuth from "next-auth";\n`;
    await put({ "auth.ts": source });
    const run = await cli(["migrate", ".", "--dryrun"], { cwd: project });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--dryrun/);
    expect(run.stderr).toMatch(/usage: appauth migrate/);
    expect(await read("auth.ts")).toBe(source);
  });

  it("prints the plan with --dry-run, line by line, and writes nothing", async () => {
    const source = `import NextAuth from "next-auth";\n\nexport const { auth } = NextAuth({ providers: [] });\n`;
    await put({ "auth.ts": source });
    const run = await cli(["migrate", "--dry-run"], { cwd: project });
    expect(run.stdout).toContain("would change auth.ts: next-auth → appauth/next, NextAuth → AppAuth");
    expect(run.stdout).toContain(`  1 - import NextAuth from "next-auth";\n  1 + import AppAuth from "appauth/next";`);
    expect(run.stdout).toContain(`  3 + export const { auth } = AppAuth({ providers: [] });`);
    expect(await read("auth.ts")).toBe(source);
  });
});

describe("appauth migrate edits syntax, not text", () => {
  it("renames only the imported NextAuth and its references, never strings, comments, keys, JSX text or a shadowing name", async () => {
    const source = [
      `import NextAuth from "next-auth";`,
      `// NextAuth is configured below; see "next-auth" docs`,
      `const label = "NextAuth";`,
      "const template = `NextAuth v5`;",
      `const keys = { NextAuth: 1, "next-auth": 2 };`,
      `keys.NextAuth = 3;`,
      `function wrap(NextAuth: (config: object) => unknown) {`,
      `  return NextAuth({});`,
      `}`,
      `export const page = <p title="NextAuth">Powered by NextAuth</p>;`,
      `export const both = { NextAuth };`,
      `export const { auth } = NextAuth({ providers: [] });`,
      `export { wrap, label, template };`,
      ``,
    ].join("\n");
    await put({ "auth.tsx": source });
    const run = await cli(["migrate", "."], { cwd: project });
    expect(run.stderr).toBe("");
    expect(await read("auth.tsx")).toBe(
      source
        .replace(`import NextAuth from "next-auth";`, `import AppAuth from "appauth/next";`)
        .replace(`export const both = { NextAuth };`, `export const both = { NextAuth: AppAuth };`)
        .replace(`export const { auth } = NextAuth(`, `export const { auth } = AppAuth(`),
    );
  });

  it("rewrites a dynamic import whatever comments sit inside it", async () => {
    await put({ "lazy.ts": `export const client = () => import(/* webpackChunkName: "auth" */ "next-auth/react");\n` });
    await cli(["migrate", "."], { cwd: project });
    expect(await read("lazy.ts")).toBe(`export const client = () => import(/* webpackChunkName: "auth" */ "appauth/react");\n`);
  });
});

describe("appauth migrate leaves alone what it cannot read, and says so", () => {
  it("leaves a Latin-1 file byte for byte and lists it", async () => {
    // "café" in Latin-1: 0xE9 is not UTF-8.
    const latin1 = Uint8Array.from([...Buffer.from(`import NextAuth from "next-auth";\n// caf`), 0xe9, 0x0a]);
    await put({ "legacy.js": latin1, "auth.ts": `import NextAuth from "next-auth";\n` });
    const run = await cli(["migrate", "."], { cwd: project });
    expect(new Uint8Array(await readFile(join(project, "legacy.js")))).toEqual(latin1);
    expect(run.stdout).toMatch(/left untouched legacy\.js: not UTF-8/);
    expect(run.code).toBe(1);
  });

  it("keeps a byte-order mark and lists a file that does not parse", async () => {
    await put({ "bom.ts": `\uFEFFimport NextAuth from "next-auth";\n`, "broken.ts": `import NextAuth from "next-auth";\nconst = ;\n` });
    const run = await cli(["migrate", "."], { cwd: project });
    expect(await read("bom.ts")).toBe(`\uFEFFimport AppAuth from "appauth/next";\n`);
    expect(await read("broken.ts")).toBe(`import NextAuth from "next-auth";\nconst = ;\n`);
    expect(run.stdout).toMatch(/left untouched broken\.ts: does not parse \(line 2/);
  });
});

describe("appauth migrate names every folder it did not look into", () => {
  it("reports node_modules and build outputs, and looks into a source folder named build", async () => {
    await put({
      "package.json": "{}",
      "node_modules/next-auth/index.js": `module.exports = require("next-auth/lib");\n`,
      "dist/auth.js": `import NextAuth from "next-auth";\n`,
      "src/build/auth.ts": `import NextAuth from "next-auth";\n`,
    });
    const run = await cli(["migrate", "."], { cwd: project });
    expect(run.stdout).toMatch(/^skipped node_modules\/ /m);
    expect(run.stdout).toMatch(/^skipped dist\/ /m);
    expect(await read("src/build/auth.ts")).toBe(`import AppAuth from "appauth/next";\n`);
    expect(await read("dist/auth.js")).toBe(`import NextAuth from "next-auth";\n`);
  });
});
