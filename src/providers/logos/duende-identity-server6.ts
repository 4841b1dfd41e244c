/** Duende IdentityServer: a "D" monogram on a white square tile, in a deep blue. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const duendeIdentityServer6Logo: string = /* @__PURE__ */ mark(glyphs.D, { ink: "#1e3a5f", shape: "rounded" });
export default duendeIdentityServer6Logo;
