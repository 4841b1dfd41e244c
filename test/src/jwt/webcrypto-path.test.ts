// The same encode/decode and tampering suites, with Node's synchronous crypto hidden: the Web Crypto
// path is what edge runtimes run, so it must stay as correct as the Node fast path.
import { describe, expect, it, vi } from "vitest";

vi.mock("../../../src/jwt/native.js", () => ({ nodeCrypto: undefined }));

describe("on a runtime without node:crypto", () => {
  it("derives keys with Web Crypto handles only", async () => {
    const { sessionKey } = await import("../../../src/jwt/key.js");
    const key = await sessionKey("a-secret-for-the-web-crypto-path", "appauth.session-token");
    expect(key.native).toBeUndefined();
  });
});

await import("./token.test.js");
await import("./tampering.test.js");
