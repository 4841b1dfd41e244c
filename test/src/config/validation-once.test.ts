import { beforeEach, describe, expect, it, vi } from "vitest";
import { validateConfigShape } from "../../../src/config/schema.js";
import type { AuthConfig } from "../../../src/types.js";
import { ADA_PASSWORD, ADA_USERNAME, testConfig } from "../../helpers/config.js";
import { TestClient } from "../../helpers/test-client.js";

// The real validation, watched: every module that imports it gets the spy.
vi.mock(import("../../../src/config/schema.js"), async (importOriginal) => {
  const actual = await importOriginal();
  return { ...actual, validateConfigShape: vi.fn(actual.validateConfigShape) };
});

const validate = vi.mocked(validateConfigShape);

beforeEach(() => {
  validate.mockClear();
});

describe("validating a configuration", () => {
  it("happens once per config object, however many requests it serves", async () => {
    const config = testConfig();
    const client = new TestClient(config);
    await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    for (let i = 0; i < 5; i++) await client.session();
    await client.signOut();
    expect(validate).toHaveBeenCalledOnce();
    expect(validate).toHaveBeenCalledWith(config);
  });

  it("happens once per config object returned by the lazy form", async () => {
    const config = testConfig();
    const client = new TestClient(() => config);
    for (let i = 0; i < 3; i++) await client.get("/session");
    expect(validate).toHaveBeenCalledOnce();
  });

  it("happens for each distinct config object", async () => {
    const configs: AuthConfig[] = [testConfig(), testConfig()];
    for (const config of configs) {
      await new TestClient(config).get("/providers");
      await new TestClient(config).get("/providers");
    }
    expect(validate).toHaveBeenCalledTimes(2);
  });

  it("counts getter reads of the config: none after the first request", async () => {
    let reads = 0;
    const config = testConfig();
    const session = { maxAge: 3600 };
    Object.defineProperty(config, "session", {
      enumerable: true,
      get() {
        reads++;
        return session;
      },
    });
    const client = new TestClient(config);
    await client.get("/session");
    const afterFirst = reads;
    expect(afterFirst).toBeGreaterThan(0);
    await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    await client.session();
    expect(reads).toBe(afterFirst);
  });
});
