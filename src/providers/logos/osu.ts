/** osu!: a "O" monogram on a white disc, in osu!'s colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const osuLogo: string = /* @__PURE__ */ mark(glyphs.O, { ink: "#ff66aa", shape: "circle" });
export default osuLogo;
