/** Discord: a "D" monogram on a white rounded tile, in Discord's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const discordLogo: string = /* @__PURE__ */ mark(glyphs.D, { ink: "#5865f2", shape: "squircle" });
export default discordLogo;
