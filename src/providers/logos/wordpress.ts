/** WordPress.com: a "W" monogram on a white disc, in WordPress.com's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const wordpressLogo: string = /* @__PURE__ */ mark(glyphs.W, { ink: "#21759b", shape: "circle" });
export default wordpressLogo;
