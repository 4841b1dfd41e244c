/** ZITADEL: a "Z" monogram on a white rounded tile, in ZITADEL's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const zitadelLogo: string = /* @__PURE__ */ mark(glyphs.Z, { ink: "#5469d4", shape: "squircle" });
export default zitadelLogo;
