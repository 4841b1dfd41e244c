/** The demo's secret: from the environment when set, otherwise generated once and kept in a file. */
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveDemoSecret } from "../../demo/secret.js";

describe("the demo's secret", () => {
  let dir: string;
  let file: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "appauth-demo-secret-"));
    file = join(dir, "nested", "secret");
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("is left to the library when APPAUTH_SECRET or AUTH_SECRET is set, and no file is written", async () => {
    for (const env of [{ APPAUTH_SECRET: "s".repeat(40) }, { AUTH_SECRET: "t".repeat(40) }]) {
      expect(await resolveDemoSecret({ env, file })).toEqual({ secret: undefined, source: "env" });
    }
    await expect(stat(file)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("is generated on first start, saved readable only by its owner, and the same on the next start", async () => {
    const first = await resolveDemoSecret({ env: {}, file });
    expect(first.source).toBe("generated");
    expect(first.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await readFile(file, "utf8")).trim()).toBe(first.secret);
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    const second = await resolveDemoSecret({ env: {}, file });
    expect(second).toEqual({ secret: first.secret, source: "file", file });
  });

  it("treats an empty environment variable as unset, as the library does", async () => {
    expect((await resolveDemoSecret({ env: { AUTH_SECRET: "" }, file })).source).toBe("generated");
  });

  it("replaces a stored value too short to be a secret it wrote", async () => {
    await resolveDemoSecret({ env: {}, file });
    await writeFile(file, "short\n");
    const replaced = await resolveDemoSecret({ env: {}, file });
    expect(replaced.source).toBe("generated");
    expect(replaced.secret).not.toBe("short");
  });
});
