/** Keycloak: a "K" monogram on a white square tile, in Keycloak's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const keycloakLogo: string = /* @__PURE__ */ mark(glyphs.K, { ink: "#0089a8", shape: "rounded" });
export default keycloakLogo;
