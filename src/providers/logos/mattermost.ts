/** Mattermost: a "M" monogram on a white disc, in Mattermost's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const mattermostLogo: string = /* @__PURE__ */ mark(glyphs.M, { ink: "#1e325c", shape: "circle" });
export default mattermostLogo;
