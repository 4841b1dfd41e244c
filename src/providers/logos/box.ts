/** Box: a "B" monogram on a white square tile, in Box's blue. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const boxLogo: string = /* @__PURE__ */ mark(glyphs.B, { ink: "#0061d5", shape: "rounded" });
export default boxLogo;
