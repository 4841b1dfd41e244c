/** WeChat: a "W" monogram on a white rounded tile, in WeChat's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const wechatLogo: string = /* @__PURE__ */ mark(glyphs.W, { ink: "#07c160", shape: "rounded" });
export default wechatLogo;
