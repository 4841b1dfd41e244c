/** Mail.ru: a "M" monogram on a white disc, in Mail.ru's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const mailruLogo: string = /* @__PURE__ */ mark(glyphs.M, { ink: "#005ff9", shape: "circle" });
export default mailruLogo;
