/** Slack: an "S" monogram on a white square tile, in Slack's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const slackLogo: string = /* @__PURE__ */ mark(glyphs.S, { ink: "#4a154b", shape: "rounded" });
export default slackLogo;
