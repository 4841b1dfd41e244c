/** Zoom: a "Z" monogram on a white disc, in Zoom's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const zoomLogo: string = /* @__PURE__ */ mark(glyphs.Z, { ink: "#0b5cff", shape: "circle" });
export default zoomLogo;
