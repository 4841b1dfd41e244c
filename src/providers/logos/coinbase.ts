/** Coinbase: a "C" monogram on a white round tile, in Coinbase's blue. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const coinbaseLogo: string = /* @__PURE__ */ mark(glyphs.C, { ink: "#0052ff", shape: "circle" });
export default coinbaseLogo;
