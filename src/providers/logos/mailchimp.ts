/** Mailchimp: a "M" monogram on a white disc, in Mailchimp's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const mailchimpLogo: string = /* @__PURE__ */ mark(glyphs.M, { ink: "#241c15", shape: "circle" });
export default mailchimpLogo;
