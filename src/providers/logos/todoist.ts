/** Todoist: a "T" monogram on a white rounded tile, in Todoist's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const todoistLogo: string = /* @__PURE__ */ mark(glyphs.T, { ink: "#e44332", shape: "rounded" });
export default todoistLogo;
