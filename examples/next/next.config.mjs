// The example compiles appauth from this repository's sources (tsconfig.json maps `appauth/*` to
// them), as a published package would be compiled from dist/: the TypeScript sources import each
// other with `.js` suffixes (NodeNext), which webpack resolves to the `.ts` files here.

/** @type {import("next").NextConfig} */
const nextConfig = {
  experimental: { externalDir: true },
  // Node-only drivers stay outside the server bundles; the middleware never reaches them.
  serverExternalPackages: ["better-sqlite3", "kysely", "nodemailer", "pg", "mysql2", "ioredis", "oidc-provider", "smtp-server"],
  // `npm run typecheck` and `npm run lint` check this app with the rest of the repository.
  typescript: { ignoreBuildErrors: true },
  eslint: { ignoreDuringBuilds: true },
  poweredByHeader: false,
  // The shared icon (app/favicon.svg/route.ts) for browsers that ask for /favicon.ico.
  async rewrites() {
    return [{ source: "/favicon.ico", destination: "/favicon.svg" }];
  },
  webpack(config) {
    config.resolve.extensionAlias = { ".js": [".ts", ".tsx", ".js"], ".mjs": [".mts", ".mjs"] };
    return config;
  },
};

export default nextConfig;
