/** SimpleLogin: a "S" monogram on a white rounded tile, in SimpleLogin's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const simpleloginLogo: string = /* @__PURE__ */ mark(glyphs.S, { ink: "#e3156a", shape: "rounded" });
export default simpleloginLogo;
