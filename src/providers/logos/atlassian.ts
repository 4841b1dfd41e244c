/** Atlassian: an "A" monogram on a white disc, in Atlassian's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const atlassianLogo: string = /* @__PURE__ */ mark(glyphs.A, { ink: "#0052cc", shape: "circle" });
export default atlassianLogo;
