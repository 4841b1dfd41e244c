/** Passage: a "P" monogram on a white rounded tile, in Passage's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const passageLogo: string = /* @__PURE__ */ mark(glyphs.P, { ink: "#000000", shape: "rounded" });
export default passageLogo;
