/** IdentityServer4: an "I" monogram on a rounded tile, in IdentityServer4's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const identityServer4Logo: string = /* @__PURE__ */ mark(glyphs.I, { ink: "#2d6db5", shape: "rounded" });
export default identityServer4Logo;
