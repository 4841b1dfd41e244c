/** Threads: a "T" monogram on a white squircle, in Threads's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const threadsLogo: string = /* @__PURE__ */ mark(glyphs.T, { ink: "#000000", shape: "squircle" });
export default threadsLogo;
