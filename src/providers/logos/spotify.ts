/** Spotify: an "S" monogram on a white disc, in a deeper shade of Spotify's green. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const spotifyLogo: string = /* @__PURE__ */ mark(glyphs.S, { ink: "#138a3e", shape: "circle" });
export default spotifyLogo;
