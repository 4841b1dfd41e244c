/** Wikimedia: a "W" monogram on a white disc, in Wikimedia's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const wikimediaLogo: string = /* @__PURE__ */ mark(glyphs.W, { ink: "#006699", shape: "circle" });
export default wikimediaLogo;
