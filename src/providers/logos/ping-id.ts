/** Ping Identity: a "P" monogram on a white rounded tile, in Ping Identity's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const pingIdLogo: string = /* @__PURE__ */ mark(glyphs.P, { ink: "#b3282d", shape: "rounded" });
export default pingIdLogo;
