/** Battle.net: a "B" monogram on a white round tile, in Battle.net's blue. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const battlenetLogo: string = /* @__PURE__ */ mark(glyphs.B, { ink: "#148eff", shape: "circle" });
export default battlenetLogo;
