/** Bitbucket: a "B" monogram on a white square tile, in Bitbucket's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const bitbucketLogo: string = /* @__PURE__ */ mark(glyphs.B, { ink: "#0052cc", shape: "rounded" });
export default bitbucketLogo;
