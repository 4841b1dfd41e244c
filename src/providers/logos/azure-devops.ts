/** Azure DevOps: an "A" monogram on a white round tile, in Azure DevOps's blue. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const azureDevopsLogo: string = /* @__PURE__ */ mark(glyphs.A, { ink: "#0078d7", shape: "circle" });
export default azureDevopsLogo;
