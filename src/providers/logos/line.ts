/** LINE: an "L" monogram on a white rounded tile, in LINE's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const lineLogo: string = /* @__PURE__ */ mark(glyphs.L, { ink: "#06c755", shape: "squircle" });
export default lineLogo;
