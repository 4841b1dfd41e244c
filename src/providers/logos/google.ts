/** Google: a "G" monogram on a white square tile, in Google's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const googleLogo: string = /* @__PURE__ */ mark(glyphs.G, { ink: "#4285f4", shape: "rounded" });
export default googleLogo;
