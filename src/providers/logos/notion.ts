/** Notion: an "N" monogram on a white square tile, in Notion's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const notionLogo: string = /* @__PURE__ */ mark(glyphs.N, { ink: "#000000", shape: "rounded" });
export default notionLogo;
