/**
 * Package-manager tabs: an `sh` code block of the docs that only installs packages (`npm install …`
 * lines and comments) is shown as a VitePress code group with the same commands for npm, pnpm, yarn
 * and bun. The guides keep one plain block (it reads well on GitHub and is what the guide tests copy);
 * the tabs are made when the site is built.
 */

const MANAGERS = ["npm", "pnpm", "yarn", "bun"] as const;
type Manager = (typeof MANAGERS)[number];

/** `npm install -D x y` (and `npm i`) in the words of `manager`. */
function installFor(manager: Manager, line: string): string {
  return line.replace(/\bnpm (?:install|i)\b((?:\s+--?[\w-]+)*)/g, (_match, flags: string) => {
    if (manager === "npm") return `npm install${flags}`;
    const dev = /\s(?:-D|--save-dev)\b/.test(flags);
    const rest = flags.replace(/\s(?:-D|--save-dev)\b/g, "");
    const command = manager === "bun" ? "bun add" : `${manager} add`;
    return `${command}${dev ? (manager === "bun" ? " -d" : " -D") : ""}${rest}`;
  });
}

/** Whether a block's lines are all installs and comments (a block that sets variables is not). */
function isInstallBlock(lines: string[]): boolean {
  const commands = lines.filter((line) => line.trim() !== "" && !line.trim().startsWith("#"));
  return commands.length > 0 && commands.every((line) => /^npm (?:install|i)(?:\s|$)/.test(line.trim()));
}

/** The Markdown of a page with each install-only `sh` block as a code group of package managers. */
export function withPackageManagerTabs(markdown: string): string {
  // A block may carry a title after its language (```sh title="install"```, for the guide tests): the tabs drop it.
  return markdown.replace(/^```(sh|bash|shell)(?:[ \t]+[^\n]*)?\n([\s\S]*?)^```$/gm, (block, lang: string, body: string) => {
    const lines = body.replace(/\n$/, "").split("\n");
    // Only bare `npm install` commands have an equivalent in every manager (no git URLs or tarballs).
    if (!isInstallBlock(lines) || /\.tgz|git\+|--allow-scripts/.test(body)) return block;
    const tabs = MANAGERS.map((manager) => `\`\`\`${lang} [${manager}]\n${lines.map((line) => installFor(manager, line)).join("\n")}\n\`\`\``);
    return `::: code-group\n\n${tabs.join("\n\n")}\n\n:::`;
  });
}
