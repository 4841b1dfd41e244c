/** HubSpot: a "H" monogram on a white disc, in HubSpot's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const hubspotLogo: string = /* @__PURE__ */ mark(glyphs.H, { ink: "#ff7a59", shape: "circle" });
export default hubspotLogo;
