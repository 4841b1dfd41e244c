/** NetSuite: a "N" monogram on a rounded tile, in NetSuite's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const netsuiteLogo: string = /* @__PURE__ */ mark(glyphs.N, { ink: "#1a3b5c", shape: "rounded" });
export default netsuiteLogo;
