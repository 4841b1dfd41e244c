/**
 * How an account identifier is folded before it is counted: every spelling a database would find
 * the same account under must share one budget, or each spelling is a fresh set of guesses. The
 * fold is deliberately coarser than any collation (two people may share a budget; one person never
 * gets two), and it is only ever a counter's key: nothing here changes what `authorize` receives.
 */

/**
 * Letters that neither NFKC nor stripping accents reduce, but that collations (MariaDB/MySQL
 * `_ai_ci`, `_general_ci`) or the eye take for a Latin letter: a compact table of the usual
 * confusables (Latin extensions, and the Cyrillic and Greek letters that look Latin).
 */
const CONFUSABLES: Record<string, string> = {
  ß: "ss", æ: "ae", œ: "oe", ø: "o", đ: "d", ð: "d", ł: "l", ħ: "h", ı: "i", ŀ: "l", ŧ: "t", þ: "th",
  а: "a", в: "b", е: "e", ё: "e", з: "3", і: "i", ї: "i", ј: "j", к: "k", м: "m", н: "h", о: "o",
  р: "p", с: "c", т: "t", у: "y", х: "x", ѕ: "s", ԁ: "d", ԛ: "q", ԝ: "w", ɡ: "g", ʏ: "y",
  α: "a", β: "b", ε: "e", η: "n", ι: "i", κ: "k", μ: "u", ν: "v", ο: "o", ρ: "p", ς: "s", σ: "s",
  τ: "t", υ: "u", χ: "x", ω: "w",
};
const CONFUSABLE = new RegExp(`[${Object.keys(CONFUSABLES).join("")}]`, "gu");

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** The longest identifier counted as typed; past it, the rest would only mint fresh keys. */
const MAX_LENGTH = 256;

/**
 * An identifier as counted: compatibility forms folded (NFKC: fullwidth, ligatures), case folded,
 * accents stripped (NFD, combining marks dropped), format and control characters removed
 * (zero-width spaces and joiners, bidi marks, soft hyphens: Unicode Cf and Cc), confusable letters
 * mapped to the Latin letter they pass for, runs of whitespace made one space and trimmed.
 * An email address also loses its plus-tag (`ada+1@x` is `ada@x`) and a trailing dot of its domain.
 */
export function foldIdentifier(value: string): string {
  // Printable ASCII has no compatibility forms, accents, format characters or confusables to fold.
  // The same steps as below, less those that cannot change it (a test holds the two paths equal).
  if (PRINTABLE_ASCII.test(value)) return foldEmail(value.slice(0, MAX_LENGTH * 4).toLowerCase().replace(/ +/g, " ").trim().slice(0, MAX_LENGTH));
  const folded = value
    .slice(0, MAX_LENGTH * 4)
    .normalize("NFKC")
    .toLowerCase()
    .replace(/\s+/gu, " ")
    .normalize("NFD")
    .replace(/[\p{M}\p{Cf}\p{Cc}]/gu, "")
    .replace(CONFUSABLE, (letter) => CONFUSABLES[letter]!)
    .normalize("NFKC")
    .trim()
    .slice(0, MAX_LENGTH);
  return foldEmail(folded);
}

/** `local+tag@domain.` as `local@domain`; anything that is not one address stays as it is. */
function foldEmail(value: string): string {
  const at = value.lastIndexOf("@");
  if (at <= 0 || at === value.length - 1) return value;
  const local = value.slice(0, at).replace(/\+.*$/s, "");
  const domain = value.slice(at + 1).replace(/\.+$/, "");
  return `${local || value.slice(0, at)}@${domain}`;
}
