/** Azure AD B2C: an "A" monogram on a white rounded tile, in Azure's blue. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const azureAdB2cLogo: string = /* @__PURE__ */ mark(glyphs.A, { ink: "#0072c6", shape: "rounded" });
export default azureAdB2cLogo;
