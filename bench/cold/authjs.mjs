// One cold start of @auth/core, the same way as appauth.mjs.
import { coldStart } from "./common.mjs";

await coldStart(async () => {
  const [{ Auth }, { default: Credentials }] = await Promise.all([import("@auth/core"), import("@auth/core/providers/credentials")]);
  return { Auth, Credentials };
});
