/** Apple: an "A" monogram on a white disc, in Apple's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const appleLogo: string = /* @__PURE__ */ mark(glyphs.A, { ink: "#000000", shape: "circle" });
export default appleLogo;
