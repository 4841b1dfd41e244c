/** Mastodon: a "M" monogram on a white rounded tile, in Mastodon's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const mastodonLogo: string = /* @__PURE__ */ mark(glyphs.M, { ink: "#6364ff", shape: "squircle" });
export default mastodonLogo;
