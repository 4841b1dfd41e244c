/** FreshBooks: a "F" monogram on a rounded tile, in FreshBooks's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const freshbooksLogo: string = /* @__PURE__ */ mark(glyphs.F, { ink: "#0075dd", shape: "rounded" });
export default freshbooksLogo;
