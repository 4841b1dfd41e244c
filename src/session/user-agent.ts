/**
 * A coarse description of the device a session was signed in from ("Firefox on Windows"), for the
 * person's list of their sessions. Deliberately coarse: browser family and operating system, no
 * versions, no device model — enough to recognise "that's my phone", nothing to fingerprint with.
 * A user agent is the client's to write, so it is only ever shown back, never trusted.
 */

// Order matters: browsers built on others name them too (Edge and Opera say "Chrome"; Chrome says "Safari").
const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, "Edge"],
  [/\b(?:OPR|OPiOS|Opera)\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\b(?:Firefox|FxiOS)\//, "Firefox"],
  [/\b(?:Chrome|CriOS|Chromium|HeadlessChrome)\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
];

// iPads and iPhones first: they say "like Mac OS X".
const SYSTEMS: readonly [RegExp, string][] = [
  [/\biPad\b/, "iPadOS"],
  [/\b(?:iPhone|iPod)\b/, "iOS"],
  [/\bAndroid\b/, "Android"],
  [/\bWindows\b/, "Windows"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
];

/** The longest user agent looked at; past it, the rest is ignored (a header is the client's to inflate). */
const MAX_USER_AGENT = 512;

function firstMatch(text: string, table: readonly [RegExp, string][]): string | undefined {
  return table.find(([pattern]) => pattern.test(text))?.[1];
}

/**
 * "Browser on System", one of the two when only one is known, or `null` for a user agent that names
 * neither (a script, a missing header).
 */
export function describeUserAgent(userAgent: string | null | undefined): string | null {
  if (!userAgent) return null;
  const text = userAgent.slice(0, MAX_USER_AGENT);
  const browser = firstMatch(text, BROWSERS);
  const system = firstMatch(text, SYSTEMS);
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? null;
}
