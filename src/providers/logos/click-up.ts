/** ClickUp: a "C" monogram on a white squircle tile, in ClickUp's violet. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const clickUpLogo: string = /* @__PURE__ */ mark(glyphs.C, { ink: "#7b68ee", shape: "squircle" });
export default clickUpLogo;
