/** United Effects: a "U" monogram on a white rounded tile, in United Effects's colour. An original mark drawn for appauth. */
import { mark } from "./svg.js";

/** A "U" stroked in the 24×24 grid of `svg.ts` (the shared glyphs have no U). */
const U = "M8 6v7.5a4 4 0 0 0 8 0V6";

export const unitedEffectsLogo: string = /* @__PURE__ */ mark(U, { ink: "#1f4e79", shape: "rounded" });
export default unitedEffectsLogo;
