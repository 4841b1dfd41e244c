/** Okta: an "O" monogram on a white disc, in Okta's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const oktaLogo: string = /* @__PURE__ */ mark(glyphs.O, { ink: "#007dc1", shape: "circle" });
export default oktaLogo;
