/** EVE Online: an "E" monogram on a dark round tile, in white. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const eveonlineLogo: string = /* @__PURE__ */ mark(glyphs.E, { ink: "#ffffff", tile: "#1b1b1b", shape: "circle" });
export default eveonlineLogo;
