/** OneLogin: an "O" monogram on a white rounded tile, in OneLogin's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const oneloginLogo: string = /* @__PURE__ */ mark(glyphs.O, { ink: "#1c1f2a", shape: "squircle" });
export default oneloginLogo;
