/** Patreon: a "P" monogram on a white disc, in Patreon's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const patreonLogo: string = /* @__PURE__ */ mark(glyphs.P, { ink: "#ff424d", shape: "circle" });
export default patreonLogo;
