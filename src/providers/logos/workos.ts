/** WorkOS: a "W" monogram on a white rounded tile, in WorkOS's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const workosLogo: string = /* @__PURE__ */ mark(glyphs.W, { ink: "#6363f1", shape: "squircle" });
export default workosLogo;
