/** Salesforce: an "S" monogram on a white rounded tile, in Salesforce's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const salesforceLogo: string = /* @__PURE__ */ mark(glyphs.S, { ink: "#0176d3", shape: "squircle" });
export default salesforceLogo;
