/** Zoho: a "Z" monogram on a white rounded tile, in Zoho's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const zohoLogo: string = /* @__PURE__ */ mark(glyphs.Z, { ink: "#e42527", shape: "rounded" });
export default zohoLogo;
