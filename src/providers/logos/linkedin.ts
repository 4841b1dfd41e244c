/** LinkedIn: an "L" monogram on a white square tile, in LinkedIn's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const linkedinLogo: string = /* @__PURE__ */ mark(glyphs.L, { ink: "#0a66c2", shape: "rounded" });
export default linkedinLogo;
