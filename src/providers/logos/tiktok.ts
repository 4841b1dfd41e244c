/** TikTok: a "T" monogram on a white rounded tile, in TikTok's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const tiktokLogo: string = /* @__PURE__ */ mark(glyphs.T, { ink: "#fe2c55", shape: "rounded" });
export default tiktokLogo;
