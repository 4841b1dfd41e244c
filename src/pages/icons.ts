/** Small inline icons (no external assets); decorative, so hidden from assistive technology. */
import { trustedHtml, type SafeHtml } from "./html.js";

function icon(paths: string): SafeHtml {
  return trustedHtml(
    `<svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round">${paths}</svg>`,
  );
}

export const envelopeIcon: SafeHtml = icon('<rect x="3" y="5" width="18" height="14" rx="2.5"/><path d="m4 7.5 8 5.5 8-5.5"/>');

export const alertIcon: SafeHtml = icon('<circle cx="12" cy="12" r="9"/><path d="M12 7.5v5.5"/><path d="M12 16.5h.01"/>');

export const signOutIcon: SafeHtml = icon(
  '<path d="M10 4H7a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h3"/><path d="m15 8 4 4-4 4"/><path d="M19 12H9.5"/>',
);

export const keyIcon: SafeHtml = icon(
  '<circle cx="8" cy="15" r="4"/><path d="m10.9 12.1 8.1-8.1"/><path d="m15.5 7.5 2.5 2.5"/><path d="m13.5 9.5 2 2"/>',
);
