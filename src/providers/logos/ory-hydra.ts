/** Ory Hydra: an "O" monogram on a white disc, in Ory Hydra's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const oryHydraLogo: string = /* @__PURE__ */ mark(glyphs.O, { ink: "#5528ff", shape: "circle" });
export default oryHydraLogo;
