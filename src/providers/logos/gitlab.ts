/** GitLab: a "G" monogram on a white rounded tile, in GitLab's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const gitlabLogo: string = /* @__PURE__ */ mark(glyphs.G, { ink: "#e24329", shape: "squircle" });
export default gitlabLogo;
