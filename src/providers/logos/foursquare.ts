/** Foursquare: a "F" monogram on a rounded tile, in Foursquare's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const foursquareLogo: string = /* @__PURE__ */ mark(glyphs.F, { ink: "#f94877", shape: "rounded" });
export default foursquareLogo;
