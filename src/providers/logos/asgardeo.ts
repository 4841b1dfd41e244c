/** Asgardeo: an "A" monogram on a white square tile, in Asgardeo's orange. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const asgardeoLogo: string = /* @__PURE__ */ mark(glyphs.A, { ink: "#ff7300", shape: "rounded" });
export default asgardeoLogo;
