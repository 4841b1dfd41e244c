/**
 * The README's route list is the route table (src/routes.ts) as a reader sees it: every route and
 * method the library serves is listed, and nothing it does not serve.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { routePath, ROUTES } from "../../src/routes.js";

const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

/** The "### Routes" table's (route, method) pairs, as `GET /callback/:provider`. */
function listedRoutes(markdown: string): string[] {
  const lines = markdown.split("\n");
  const heading = lines.findIndex((line) => line.startsWith("### Routes"));
  expect(heading, "a ### Routes section").toBeGreaterThanOrEqual(0);
  const first = lines.findIndex((line, index) => index > heading && line.startsWith("|"));
  const rows: string[] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith("|")) break;
    const [routes = "", methods = ""] = line.split("|").slice(1).map((cell) => cell.trim());
    for (const route of routes.split(",").map((r) => r.trim().replace(/^`|`$/g, ""))) {
      for (const method of methods.split(",").map((m) => m.trim())) rows.push(`${method} ${route}`);
    }
  }
  return rows;
}

describe("the README's route list", () => {
  const listed = listedRoutes(readme);
  const served = [...new Set(ROUTES.map((row) => `${row.method} ${routePath(row)}`))];

  it("is read from the README (the parser finds the table)", () => {
    expect(listed).toContain("GET /session");
    expect(listed).toContain("POST /callback/:provider");
  });

  it("lists every route and method the library serves", () => {
    expect(served.filter((route) => !listed.includes(route))).toEqual([]);
  });

  it("lists nothing the library does not serve, and nothing twice", () => {
    expect(listed.filter((route) => !served.includes(route))).toEqual([]);
    expect(listed.length).toBe(new Set(listed).size);
  });
});
