/** Figma: an "F" monogram on a white squircle tile, in Figma's purple. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const figmaLogo: string = /* @__PURE__ */ mark(glyphs.F, { ink: "#a259ff", shape: "squircle" });
export default figmaLogo;
