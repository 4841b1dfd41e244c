/** FACEIT: an "F" monogram on a white square tile, in FACEIT's orange. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const faceitLogo: string = /* @__PURE__ */ mark(glyphs.F, { ink: "#ff5500", shape: "rounded" });
export default faceitLogo;
