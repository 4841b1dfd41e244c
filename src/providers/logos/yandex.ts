/** Yandex: a "Y" monogram on a white disc, in Yandex's colour. An original mark drawn for appauth. */
import { glyphs, mark } from "./svg.js";

export const yandexLogo: string = /* @__PURE__ */ mark(glyphs.Y, { ink: "#fc3f1d", shape: "circle" });
export default yandexLogo;
