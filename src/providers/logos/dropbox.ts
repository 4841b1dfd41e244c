/** Dropbox: a "D" monogram on a white square tile, in Dropbox's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const dropboxLogo: string = /* @__PURE__ */ mark(glyphs.D, { ink: "#0061fe", shape: "rounded" });
export default dropboxLogo;
