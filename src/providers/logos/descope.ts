/** Descope: a "D" monogram on a white disc, in Descope's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const descopeLogo: string = /* @__PURE__ */ mark(glyphs.D, { ink: "#1c1c23", shape: "circle" });
export default descopeLogo;
