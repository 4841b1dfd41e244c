/** Netlify: a "N" monogram on a white rounded tile, in Netlify's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const netlifyLogo: string = /* @__PURE__ */ mark(glyphs.N, { ink: "#00ad9f", shape: "squircle" });
export default netlifyLogo;
