/** BankID (Norway): a "B" monogram on a white square tile, in BankID's aubergine. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const bankidNoLogo: string = /* @__PURE__ */ mark(glyphs.B, { ink: "#39134c", shape: "rounded" });
export default bankidNoLogo;
