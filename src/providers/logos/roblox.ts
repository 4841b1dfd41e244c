/** Roblox: a "R" monogram on a white rounded tile, in Roblox's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const robloxLogo: string = /* @__PURE__ */ mark(glyphs.R, { ink: "#000000", shape: "rounded" });
export default robloxLogo;
