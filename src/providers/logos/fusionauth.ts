/** FusionAuth: a "F" monogram on a white disc, in FusionAuth's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const fusionauthLogo: string = /* @__PURE__ */ mark(glyphs.F, { ink: "#f58320", shape: "circle" });
export default fusionauthLogo;
