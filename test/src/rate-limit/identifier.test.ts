/**
 * The identifier fold on its own: spellings a database or a mail server takes for one account are
 * one key, and printable ASCII (the common case, folded on a short path) folds exactly as it would
 * on the full one.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { foldIdentifier } from "../../../src/rate-limit/identifier.js";

describe("folding identifiers", () => {
  it("folds case, width, accents, zero-width and format characters, confusables, plus-tags and a domain's trailing dot into one key", () => {
    const spellings = [
      "ada@example.test",
      "ADA@Example.TEST",
      "  ada@example.test\t",
      "\uFF41\uFF44\uFF41@example.test",
      "a\u200Bd\u200Da@example.test",
      "\u00E1d\u00E0@example.test",
      "a\u0301da@example.test",
      "\u0430d\u03B1@example.test",
      "ada+news@example.test",
      "ada@example.test.",
      "\u00ADada\u200E@example.test",
    ];
    expect(new Set(spellings.map(foldIdentifier))).toEqual(new Set(["ada@example.test"]));
    expect(foldIdentifier("Stra\u00DFe")).toBe(foldIdentifier("strasse"));
  });

  it("folds printable ASCII on its short path exactly as on the full one", () => {
    // A leading non-ASCII character that folds to nothing sends the same text down the full path.
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..." +@.-_aAbBzZ09~".split("")), maxLength: 40 }), (typed) => {
        expect(foldIdentifier(typed)).toBe(foldIdentifier(`\u200B${typed}`));
      }),
    );
  });
});
