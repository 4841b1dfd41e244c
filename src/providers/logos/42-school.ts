/** 42 School: a "42" drawn in two strokes on a white square tile, in black. An original mark drawn for appauth. */
import { mark } from "./svg.js";

/** "4" (an open stroke and its stem) and "2", side by side in the 5..19 box. */
const FORTY_TWO = "M10 17V7L5.5 14h5M13 10a2.5 2.5 0 0 1 5 0c0 1.8-5 4.5-5 7h5";

export const fortyTwoSchoolLogo: string = /* @__PURE__ */ mark(FORTY_TWO, { ink: "#000000", shape: "rounded" });
export default fortyTwoSchoolLogo;
