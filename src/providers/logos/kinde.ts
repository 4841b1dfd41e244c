/** Kinde: a "K" monogram on a rounded tile, in Kinde's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const kindeLogo: string = /* @__PURE__ */ mark(glyphs.K, { ink: "#0f0f0f", shape: "rounded" });
export default kindeLogo;
