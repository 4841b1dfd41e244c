/** Azure Active Directory: an "A" monogram on a white squircle tile, in Azure's blue. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const azureAdLogo: string = /* @__PURE__ */ mark(glyphs.A, { ink: "#0072c6", shape: "squircle" });
export default azureAdLogo;
