/** Reddit: an "R" monogram on a white disc, in Reddit's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const redditLogo: string = /* @__PURE__ */ mark(glyphs.R, { ink: "#ff4500", shape: "circle" });
export default redditLogo;
