/** Dribbble: a "D" monogram on a white round tile, in Dribbble's pink. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const dribbbleLogo: string = /* @__PURE__ */ mark(glyphs.D, { ink: "#ea4c89", shape: "circle" });
export default dribbbleLogo;
