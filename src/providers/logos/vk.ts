/** VK: a "V" monogram on a white rounded tile, in VK's blue. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const vkLogo: string = /* @__PURE__ */ mark(glyphs.V, { ink: "#0077ff", shape: "rounded" });
export default vkLogo;
