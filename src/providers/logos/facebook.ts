/** Facebook: an "F" monogram on a white disc, in Facebook's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const facebookLogo: string = /* @__PURE__ */ mark(glyphs.F, { ink: "#0866ff", shape: "circle" });
export default facebookLogo;
