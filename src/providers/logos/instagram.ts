/** Instagram: an "I" monogram on a white rounded tile, in Instagram's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const instagramLogo: string = /* @__PURE__ */ mark(glyphs.I, { ink: "#e1306c", shape: "squircle" });
export default instagramLogo;
