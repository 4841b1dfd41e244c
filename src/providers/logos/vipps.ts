/** Vipps MobilePay: a "V" monogram on a white rounded tile, in Vipps MobilePay's colour. An original mark drawn for appauth. */
import { mark } from "./svg.js";

/** A "V" stroked in the 24×24 grid of `svg.ts` (the shared glyphs have no V). */
const V = "M7 6l5 12 5-12";

export const vippsLogo: string = /* @__PURE__ */ mark(V, { ink: "#ff5b24", shape: "rounded" });
export default vippsLogo;
