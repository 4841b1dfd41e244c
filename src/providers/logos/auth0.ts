/** Auth0: an "A" monogram on a white rounded tile, in Auth0's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const auth0Logo: string = /* @__PURE__ */ mark(glyphs.A, { ink: "#eb5424", shape: "squircle" });
export default auth0Logo;
