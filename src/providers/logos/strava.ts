/** Strava: an "S" monogram on a white square tile, in Strava's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const stravaLogo: string = /* @__PURE__ */ mark(glyphs.S, { ink: "#fc4c02", shape: "rounded" });
export default stravaLogo;
