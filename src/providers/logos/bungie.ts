/** Bungie: a "B" monogram on a white round tile, in Bungie's blue. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const bungieLogo: string = /* @__PURE__ */ mark(glyphs.B, { ink: "#0d74b8", shape: "circle" });
export default bungieLogo;
