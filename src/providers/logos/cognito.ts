/** Amazon Cognito: a "C" monogram on a white square tile, in Amazon Cognito's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const cognitoLogo: string = /* @__PURE__ */ mark(glyphs.C, { ink: "#dd344c", shape: "rounded" });
export default cognitoLogo;
