/** Eventbrite: an "E" monogram on a white round tile, in Eventbrite's orange. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const eventbriteLogo: string = /* @__PURE__ */ mark(glyphs.E, { ink: "#f05537", shape: "circle" });
export default eventbriteLogo;
