/**
 * The QR code of an `otpauth://` URI, as inline SVG for the enrollment page: dark modules on a white
 * ground in either colour scheme (scanners want the contrast, and a quiet zone of 4 modules, ISO/IEC
 * 18004 §6.3.8), labelled for assistive technology. Drawn by `uqr`; the SVG holds only the modules,
 * never the URI as text.
 */
import { renderSVG } from "uqr";

/** The QR code of `data` as an `<svg>` element with an accessible name (`label`). */
export function qrCodeSvg(data: string, options: { label: string }): string {
  // ECC level M: survives a smudged screen; a TOTP URI still fits a small code.
  const svg = renderSVG(data, { ecc: "M", border: 4, pixelSize: 4, whiteColor: "#ffffff", blackColor: "#000000" });
  const label = options.label.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return svg.replace(/^<svg /, `<svg role="img" aria-label="${label}" class="qr" `);
}
