/**
 * Every provider fixture under `fixtures/`, by provider id (the file name): adding a provider's
 * fixture file is all it takes for the flow test to sign a person in through it. Vite (vitest)
 * collects the files at transform time.
 */
/// <reference types="vite/client" />
import type { CatalogProviderId } from "../../../../src/providers/catalog/index.js";
import type { ProviderFacts, ProviderFixture, ProviderSample } from "./fixture.js";

const modules = import.meta.glob<ProviderFixture>("./fixtures/*.ts", { eager: true, import: "default" });

/**
 * The fixtures by id. Typed by the catalog's ids so tests can name one; `flow.test.ts` checks that
 * the fixtures and the catalog list the same ids.
 */
export const fixtures = Object.fromEntries(
  Object.entries(modules).map(([path, fixture]) => [path.slice("./fixtures/".length, -".ts".length), fixture]),
) as Record<CatalogProviderId, ProviderFixture>;

const byId = <T>(pick: (fixture: ProviderFixture) => T) =>
  Object.fromEntries(Object.entries(fixtures).map(([id, fixture]) => [id, pick(fixture)])) as Record<CatalogProviderId, T>;

/** Each provider's documented sample sign-in. */
export const samples = byId((fixture): ProviderSample => fixture.sample);

/** What each provider's documentation says its servers are and expect. */
export const flowFacts = byId((fixture): ProviderFacts => fixture.facts);
