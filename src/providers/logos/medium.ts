/** Medium: a "M" monogram on a rounded tile, in Medium's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const mediumLogo: string = /* @__PURE__ */ mark(glyphs.M, { ink: "#000000", shape: "rounded" });
export default mediumLogo;
