/** Beyond Identity: a "B" monogram on a white squircle tile, in Beyond Identity's blue. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const beyondidentityLogo: string = /* @__PURE__ */ mark(glyphs.B, { ink: "#5077c5", shape: "squircle" });
export default beyondidentityLogo;
