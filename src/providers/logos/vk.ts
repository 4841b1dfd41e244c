/** VK: a "V" monogram on a white squircle, in VK's colour. An original mark drawn for appauth. */
import { mark } from "./svg.js";

/** A "V" stroked in the 24×24 grid of `svg.ts` (the shared glyphs have no V). */
const V = "M7 6l5 12 5-12";

export const vkLogo: string = /* @__PURE__ */ mark(V, { ink: "#0077ff", shape: "squircle" });
export default vkLogo;
