/** NAVER: an "N" monogram on a white square tile, in NAVER's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const naverLogo: string = /* @__PURE__ */ mark(glyphs.N, { ink: "#03c75a", shape: "rounded" });
export default naverLogo;
