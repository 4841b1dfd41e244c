// One cold start of appauth (bench/cold-start.ts runs it in a fresh process): import the built
// package, build the bench config (one Credentials provider), answer the first GET /session.
import { coldStart } from "./common.mjs";

await coldStart(async () => {
  const [{ Auth }, { default: Credentials }] = await Promise.all([import("appauth"), import("appauth/providers/credentials")]);
  return { Auth, Credentials };
});
