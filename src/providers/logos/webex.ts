/** Webex: a "W" monogram on a white disc, in Webex's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const webexLogo: string = /* @__PURE__ */ mark(glyphs.W, { ink: "#0a6cbc", shape: "circle" });
export default webexLogo;
