/**
 * The codemod borrows a TypeScript parser at run time (appauth does not depend on one): the migrated
 * project's own first, then one that resolves from appauth, else a refusal that says how to run it.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadTypeScript } from "../../../src/cli/typescript.js";

let project: string;
beforeEach(async () => {
  project = await mkdtemp(join(tmpdir(), "appauth-typescript-"));
});
afterEach(() => rm(project, { recursive: true, force: true }));

describe("the TypeScript the codemod parses with", () => {
  it("is the migrated project's own when it has one", async () => {
    await mkdir(join(project, "node_modules/typescript"), { recursive: true });
    await writeFile(join(project, "node_modules/typescript/package.json"), `{ "name": "typescript", "main": "index.js" }`);
    await writeFile(join(project, "node_modules/typescript/index.js"), `exports.createSourceFile = () => undefined; exports.version = "project's own";`);
    expect(loadTypeScript(project)?.version).toBe("project's own");
  });

  it("is the one appauth resolves when the project has none", () => {
    expect(loadTypeScript(project)?.version).toBe(ts.version);
  });

  it("is missing when neither has one", () => {
    expect(loadTypeScript(project, pathToFileURL(join(project, "index.js")))).toBeUndefined();
  });
});
