/** Pipedrive: a "P" monogram on a white rounded tile, in Pipedrive's green. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const pipedriveLogo: string = /* @__PURE__ */ mark(glyphs.P, { ink: "#017737", shape: "rounded" });
export default pipedriveLogo;
