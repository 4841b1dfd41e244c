/**
 * `npx tsx scripts/authjs-provider-ids.ts`: writes test/src/providers/catalog/authjs-ids.json, the
 * table of every OAuth/OIDC and email provider of the installed `@auth/core` (its module under
 * `@auth/core/providers/`, the provider id its factory gives, its type and display name), which the
 * catalog test holds the catalog to without Auth.js or a network at test time. Run it again after
 * upgrading `@auth/core`; the test says when the table and the installed package disagree.
 */
import { readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export interface AuthjsProvider {
  /** The module: `@auth/core/providers/<module>`, `next-auth/providers/<module>`. */
  module: string;
  /** The provider id its factory gives (the `/callback/<id>` path). */
  id: string;
  type: "oauth" | "oidc" | "email";
  name: string;
}

export interface AuthjsProviderTable {
  "@auth/core": string;
  providers: AuthjsProvider[];
}

export const TABLE = fileURLToPath(new URL("../test/src/providers/catalog/authjs-ids.json", import.meta.url));

/** The options the nodemailer-based factories refuse to start without; the others ignore them. */
const SMTP = { server: "smtp://localhost:25" };

/** Reads the installed `@auth/core`'s providers: every module whose default export makes an oauth, oidc or email provider. */
export async function readAuthjsProviders(): Promise<AuthjsProviderTable> {
  // The package's exports map names neither its package.json nor its folder: read them where npm put them.
  const root = fileURLToPath(new URL("../node_modules/@auth/core/", import.meta.url));
  const { version } = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as { version: string };
  const directory = join(root, "providers");
  const providers: AuthjsProvider[] = [];
  for (const file of (await readdir(directory)).filter((name) => name.endsWith(".js")).sort()) {
    const factory = ((await import(pathToFileURL(join(directory, file)).href)) as { default?: unknown }).default;
    if (typeof factory !== "function") continue; // index, oauth, provider-types: no provider
    const config = factory(SMTP) as { id: string; type: string; name: string };
    if (config.type !== "oauth" && config.type !== "oidc" && config.type !== "email") continue; // credentials, webauthn
    providers.push({ module: file.slice(0, -".js".length), id: config.id, type: config.type, name: config.name });
  }
  return { "@auth/core": version, providers };
}

export function formatTable(table: AuthjsProviderTable): string {
  const rows = table.providers.map((provider) => `    ${JSON.stringify(provider)}`);
  return `{\n  "@auth/core": ${JSON.stringify(table["@auth/core"])},\n  "providers": [\n${rows.join(",\n")}\n  ]\n}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const table = await readAuthjsProviders();
  await writeFile(TABLE, formatTable(table));
  console.log(`wrote ${table.providers.length} providers of @auth/core ${table["@auth/core"]} to ${TABLE}`);
}
