/** GitHub: a "G" monogram on a white disc, in GitHub's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const githubLogo: string = /* @__PURE__ */ mark(glyphs.G, { ink: "#24292f", shape: "circle" });
export default githubLogo;
