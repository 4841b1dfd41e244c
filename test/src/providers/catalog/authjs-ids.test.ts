/**
 * Every OAuth/OIDC and email provider of `@auth/core` (the table `authjs-ids.json`, written by
 * `scripts/authjs-provider-ids.ts` from the installed package) has its counterpart here: the same
 * module under `appauth/providers/`, whose factory gives the same provider id (so callback URLs
 * registered at the provider keep working), a catalog entry for OAuth ones (so the flow test signs
 * a person in through it), and the codemod moves its import there. No network, no Auth.js at run
 * time for the comparison itself.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { formatTable, readAuthjsProviders, type AuthjsProviderTable } from "../../../../scripts/authjs-provider-ids.js";
import { rewriteSpecifier } from "../../../../src/cli/specifiers.js";
import { catalog } from "../../../../src/providers/catalog/index.js";

const ROOT = new URL("../../../../", import.meta.url);
const TABLE_FILE = new URL("authjs-ids.json", import.meta.url);
const table = JSON.parse(readFileSync(TABLE_FILE, "utf8")) as AuthjsProviderTable;

/**
 * Auth.js modules not in appauth yet, by module name: issue 29 is shared by three branches, and each
 * lists here the ones the others add. Emptied as they merge; an entry that is no longer missing fails
 * the last test below, so the list cannot outlive the gap.
 */
const PENDING: readonly string[] = [];

type Factory = (options?: Record<string, unknown>) => { id: string; type: string };

/** The source file `appauth/providers/<module>` resolves to through the package's exports map, if any. */
function sourceOf(module: string): string | undefined {
  const { exports } = JSON.parse(readFileSync(new URL("package.json", ROOT), "utf8")) as { exports: Record<string, unknown> };
  const entry = (exports[`./providers/${module}`] ?? exports["./providers/*"]) as { import: string } | undefined;
  if (!entry) return undefined;
  const built = entry.import.replace("*", module);
  const source = fileURLToPath(new URL(built.replace(/^\.\/dist\//, "./").replace(/\.js$/, ".ts"), ROOT));
  return existsSync(source) ? source : undefined;
}

const catalogFactories = new Set<unknown>(Object.values(catalog));
const catalogIds = new Set(Object.keys(catalog));

/** What keeps an Auth.js user of `module` from switching by changing the import path; empty when nothing does. */
async function gaps({ module, id, type }: AuthjsProviderTable["providers"][number]): Promise<string[]> {
  const source = sourceOf(module);
  if (!source) return [`no appauth/providers/${module}`];
  const found: string[] = [];
  const factory = ((await import(source)) as { default?: unknown }).default;
  if (typeof factory !== "function") return [`appauth/providers/${module} has no default export`];
  const provider = (factory as Factory)();
  if (provider.id !== id) found.push(`its provider id is "${provider.id}", Auth.js's "${id}"`);
  if ((provider.type === "email") !== (type === "email")) found.push(`its type is ${provider.type}, Auth.js's ${type}`);
  if (type !== "email" && !catalogFactories.has(factory)) found.push("not in the catalog");
  const rewrite = rewriteSpecifier(`next-auth/providers/${module}`, catalogIds);
  if (!rewrite || !("to" in rewrite) || rewrite.to !== `appauth/providers/${module}`) found.push(`the codemod answers ${JSON.stringify(rewrite)}`);
  return found;
}

async function allGaps(): Promise<Record<string, string[]>> {
  const result: Record<string, string[]> = {};
  for (const provider of table.providers) {
    const found = await gaps(provider);
    if (found.length > 0) result[provider.module] = found;
  }
  return result;
}

describe("Auth.js's providers in appauth", () => {
  it("the table is what the installed @auth/core has (regenerate it with scripts/authjs-provider-ids.ts)", async () => {
    const installed = await readAuthjsProviders();
    expect(formatTable(installed)).toBe(readFileSync(TABLE_FILE, "utf8"));
  });

  it("the table lists Auth.js's OAuth/OIDC and email providers, and only those", () => {
    const kinds = new Set(table.providers.map((provider) => provider.type));
    expect([...kinds].sort()).toEqual(["email", "oauth", "oidc"]);
    expect(table.providers.map((provider) => provider.module)).toEqual(expect.arrayContaining(["github", "google", "nodemailer", "resend"]));
    expect(table.providers.map((provider) => provider.module)).not.toContain("credentials");
  });

  it("every provider not PENDING switches by changing the import path: same module, same id, in the catalog, known to the codemod", async () => {
    const missing = Object.fromEntries(Object.entries(await allGaps()).filter(([module]) => !PENDING.includes(module)));
    expect(missing).toEqual({});
  });

  it("PENDING lists only providers still missing (remove the ones that merged)", async () => {
    const missing = await allGaps();
    expect(PENDING.filter((module) => !(module in missing))).toEqual([]);
    expect(PENDING.filter((module) => !table.providers.some((provider) => provider.module === module))).toEqual([]);
  });
});
