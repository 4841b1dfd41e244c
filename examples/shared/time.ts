/**
 * An instant as a person reads it in the examples' pages: "29 Nov 2026, 03:45 UTC". Always in UTC,
 * so the text the server renders is the text the browser would render (no hydration mismatch); the
 * machine-readable form goes in the `<time dateTime>` beside it.
 */
const FORMAT = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: "UTC",
});

/** `value` (a Date or an ISO string) formatted, or `value` itself when it is not a date. */
export function readableTime(value: Date | string): string {
  const date = typeof value === "string" ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? String(value) : `${FORMAT.format(date)} UTC`;
}
