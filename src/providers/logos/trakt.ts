/** Trakt: a "T" monogram on a white disc, in Trakt's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const traktLogo: string = /* @__PURE__ */ mark(glyphs.T, { ink: "#ed1c24", shape: "circle" });
export default traktLogo;
