/** Logto: a "L" monogram on a white rounded tile, in Logto's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const logtoLogo: string = /* @__PURE__ */ mark(glyphs.L, { ink: "#5d34f2", shape: "squircle" });
export default logtoLogo;
