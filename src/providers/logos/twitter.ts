/** X: an "X" monogram on a white square tile, in black. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const twitterLogo: string = /* @__PURE__ */ mark(glyphs.X, { ink: "#000000", shape: "rounded" });
export default twitterLogo;
