/** BoxyHQ SAML Jackson: a "B" monogram on a white squircle tile, in BoxyHQ's green. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const boxyhqSamlLogo: string = /* @__PURE__ */ mark(glyphs.B, { ink: "#25c2a0", shape: "squircle" });
export default boxyhqSamlLogo;
