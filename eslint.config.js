// Lint runs inside `npm test`: TypeScript-aware recommended rules, plus the few house rules we enforce.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";

export default tseslint.config(
  { ignores: ["dist/**", "dist.build-*/**", "dist.old-*/**", "node_modules/**", "visualizations/**", "demo/.data/**", "test/.artifacts/**", "examples/*/.next/**", "examples/*/next-env.d.ts", "test/e2e/fresh-next/starter-*/next-env.d.ts", "examples/*/node_modules/**", "examples/*/.output/**", "examples/*/.vinxi/**", "examples/qwik/dist/**", "examples/qwik/server/**", "examples/qwik/tmp/**", "docs/.site/**", "docs/.gen/**", "docs/.vitepress/cache/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-restricted-imports": "off",
    },
  },
  {
    // Machines are pure: no I/O, no clock, no randomness, no Node built-ins.
    files: ["machines/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["node:*"], message: "Machines are pure: no Node built-ins." },
            { group: ["../src/*", "../src/**"], allowTypeImports: true, message: "Machines import only types from src/." },
          ],
        },
      ],
      "no-restricted-globals": ["error", "fetch", "crypto", "setTimeout", "setInterval", "process"],
      "no-restricted-properties": [
        "error",
        { object: "Date", property: "now", message: "Machines have no clock: take time from an actor." },
        { object: "Math", property: "random", message: "Machines have no randomness." },
      ],
    },
  },
);
