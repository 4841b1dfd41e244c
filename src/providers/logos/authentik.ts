/** authentik: an "A" monogram on a white square tile, in authentik's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const authentikLogo: string = /* @__PURE__ */ mark(glyphs.A, { ink: "#fd4b2d", shape: "rounded" });
export default authentikLogo;
