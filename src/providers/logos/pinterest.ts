/** Pinterest: a "P" monogram on a white disc, in Pinterest's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const pinterestLogo: string = /* @__PURE__ */ mark(glyphs.P, { ink: "#e60023", shape: "circle" });
export default pinterestLogo;
