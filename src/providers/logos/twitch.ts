/** Twitch: a "T" monogram on a white rounded tile, in Twitch's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const twitchLogo: string = /* @__PURE__ */ mark(glyphs.T, { ink: "#9146ff", shape: "squircle" });
export default twitchLogo;
