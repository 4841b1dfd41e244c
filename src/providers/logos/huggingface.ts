/** Hugging Face: a "H" monogram on a white rounded tile, in Hugging Face's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const huggingfaceLogo: string = /* @__PURE__ */ mark(glyphs.H, { ink: "#ff9d00", shape: "squircle" });
export default huggingfaceLogo;
