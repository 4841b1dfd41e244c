/** Nextcloud: a "N" monogram on a white disc, in Nextcloud's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const nextcloudLogo: string = /* @__PURE__ */ mark(glyphs.N, { ink: "#0082c9", shape: "circle" });
export default nextcloudLogo;
