/** Microsoft Entra ID: an "E" monogram on a white square tile, in Microsoft Entra ID's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const microsoftEntraIdLogo: string = /* @__PURE__ */ mark(glyphs.E, { ink: "#0078d4", shape: "rounded" });
export default microsoftEntraIdLogo;
