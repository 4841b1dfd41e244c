/** Frontegg: a "F" monogram on a white rounded tile, in Frontegg's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const fronteggLogo: string = /* @__PURE__ */ mark(glyphs.F, { ink: "#4461f2", shape: "squircle" });
export default fronteggLogo;
