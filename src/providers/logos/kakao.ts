/** Kakao: a "K" monogram on a white rounded tile, in Kakao's dark ink (its yellow is too light on white). An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const kakaoLogo: string = /* @__PURE__ */ mark(glyphs.K, { ink: "#191919", shape: "squircle" });
export default kakaoLogo;
