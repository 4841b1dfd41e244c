/**
 * The Auth.js-contract part of `appauth/adapters/test` against the published Auth.js adapters, each on
 * its documented schema (published-schemas.ts): what the suite calls the Auth.js contract is what they do.
 * The two that break the contract themselves are listed as skipped, with what they break.
 */
import { runAdapterConformance } from "../../../src/adapters/test/index.js";
import { PUBLISHED_ADAPTERS, type PublishedAdapterInstance } from "./published-schemas.js";
import { postgresAvailability } from "./servers.js";

const postgresSkip = await postgresAvailability();

for (const published of PUBLISHED_ADAPTERS) {
  let instance: PublishedAdapterInstance | undefined;
  const skip = published.contractDeviation
    ? `the published version breaks the Auth.js contract: ${published.contractDeviation}`
    : published.postgres
      ? postgresSkip
      : undefined;
  runAdapterConformance(`${published.name} (Auth.js contract)`, {
    contract: "authjs",
    ...(skip !== undefined ? { skip } : {}),
    async adapter() {
      instance = await published.start();
      return instance.adapter;
    },
    async teardown() {
      await instance?.close();
    },
  });
}
