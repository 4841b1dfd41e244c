/**
 * `npm start`: the Next.js example on http://localhost:$PORT (default 3000), built first when it
 * has never been built or its sources changed, and served until SIGINT or SIGTERM. The work is in
 * start-next.ts, which the e2e tests use too. (`npm run demo:node` runs the plain node:http demo,
 * `npm run demo:solid` the SolidStart example.)
 */
import { runDemo } from "./demo-services.js";
import { buildExample, buildIsCurrent, startExample } from "./start-next.js";

await runDemo({ framework: "Next.js", server: "next start", build: () => buildExample(), buildIsCurrent, start: startExample });
