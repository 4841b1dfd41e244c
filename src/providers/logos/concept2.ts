/** Concept2: a "C" monogram on a white square tile, in Concept2's navy. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const concept2Logo: string = /* @__PURE__ */ mark(glyphs.C, { ink: "#003a70", shape: "rounded" });
export default concept2Logo;
