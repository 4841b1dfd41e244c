/**
 * `appauth/providers/passkey` and `appauth/providers/webauthn`: each entry point default-exports the
 * provider it is named after (as Auth.js users import them), both name both, and package.json sends
 * each subpath to its own file.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import PasskeyDefault, * as passkeyEntry from "../../../src/providers/passkey.js";
import WebAuthnDefault, * as webauthnEntry from "../../../src/providers/webauthn.js";
import { PasskeyClient, passkeyConfig } from "./fixtures.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const exportsMap = (JSON.parse(readFileSync(`${root}package.json`, "utf8")) as { exports: Record<string, { types: string; import: string }> })
  .exports;

describe("the passkey provider entry points", () => {
  it("gives a provider with id passkey as the default export of appauth/providers/passkey", () => {
    expect(PasskeyDefault()).toMatchObject({ id: "passkey", name: "Passkey", type: "webauthn", enableConditionalUI: true });
  });

  it("gives a provider with id webauthn as the default export of appauth/providers/webauthn", () => {
    expect(WebAuthnDefault()).toMatchObject({ id: "webauthn", name: "WebAuthn", type: "webauthn", enableConditionalUI: false });
  });

  it("names both providers in both entry points", () => {
    for (const entry of [passkeyEntry, webauthnEntry]) {
      expect(entry.Passkey().id).toBe("passkey");
      expect(entry.WebAuthn().id).toBe("webauthn");
    }
  });

  it.each([
    ["./providers/passkey", "passkey"],
    ["./providers/webauthn", "webauthn"],
  ])("points the package subpath %s at its own compiled file", (subpath, file) => {
    const target = exportsMap[subpath]!;
    expect(target).toEqual({ types: `./dist/src/providers/${file}.d.ts`, import: `./dist/src/providers/${file}.js` });
    // dist/ is compiled from src/ file for file (tsconfig.build.json), so the source must be there.
    expect(existsSync(`${root}src/providers/${file}.ts`)).toBe(true);
  });

  it("serves both default providers side by side, each under its own id", async () => {
    const config = passkeyConfig({ providers: [PasskeyDefault(), WebAuthnDefault()] });
    const client = new PasskeyClient(config);
    const providers = (await (await client.get("/providers")).json()) as Record<string, { id: string; type: string }>;
    expect(Object.keys(providers).sort()).toEqual(["passkey", "webauthn"]);
    expect((await client.options({}, "passkey")).action).toBe("authenticate");
    expect((await client.options({}, "webauthn")).action).toBe("authenticate");
    expect(config.logger.codes("error")).toEqual([]);
  });
});
