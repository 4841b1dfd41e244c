import { describe, expect, it } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { runAdapterConformance, sampleUser } from "../../../src/adapters/test/index.js";

runAdapterConformance("MemoryAdapter", { adapter: () => MemoryAdapter() });

describe("MemoryAdapter", () => {
  it("keeps two instances apart", async () => {
    const [a, b] = [MemoryAdapter(), MemoryAdapter()];
    const user = await a.createUser(sampleUser());
    expect(await b.getUser(user.id)).toBeNull();
  });
});
