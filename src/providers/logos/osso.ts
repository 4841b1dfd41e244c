/** Osso: an "O" monogram on a rounded tile, in Osso's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const ossoLogo: string = /* @__PURE__ */ mark(glyphs.O, { ink: "#1d4ed8", shape: "rounded" });
export default ossoLogo;
