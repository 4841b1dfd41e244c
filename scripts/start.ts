/**
 * `npm start`: the Next.js example on http://localhost:$PORT (default 3000), built first when it
 * has never been built or its sources changed, and served until SIGINT or SIGTERM. The work is in
 * start-next.ts, which the e2e tests use too. (`npm run demo:node` runs the plain node:http demo.)
 */
import { buildExample, buildIsCurrent, startExample, type RunningExample } from "./start-next.js";

function portFromEnv(value: string | undefined): number {
  if (value === undefined || value === "") return 3000;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`PORT must be an integer from 0 to 65535; got ${JSON.stringify(value)}.`);
    process.exit(1);
  }
  return port;
}

const port = portFromEnv(process.env.PORT);

if (!(await buildIsCurrent())) {
  console.log("Building the Next.js example (first start, or its sources changed): next build…\n");
  try {
    const { built, seconds } = await buildExample();
    console.log(built ? `\nBuilt in ${seconds.toFixed(0)} s.\n` : "Another process has just built it.\n");
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}

let app: RunningExample;
try {
  app = await startExample({ port });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

const secretNote = {
  env: "from APPAUTH_SECRET / AUTH_SECRET",
  file: "from demo/.data/secret",
  generated: "generated and saved to demo/.data/secret",
  option: "given to startExample",
}[app.secretSource];

console.log(`
appauth Next.js example on ${app.url}
  sign in with username "demo" and password "demo",
  with the bundled OpenID Provider (${app.issuer}): no account needed,
  by email (the links arrive at ${app.url}/dev/mailbox), or with a passkey
  protected area: ${app.url}/protected
  secret: ${secretNote}; data: demo/.data
  press Ctrl+C to stop`);

let stopping = false;
void app.exited.then((code) => {
  if (stopping) return;
  console.error(`next start exited (code ${code}): stopping the demo's services.`);
  void app.close().finally(() => process.exit(code || 1));
});

function stop(signal: NodeJS.Signals): void {
  if (stopping) process.exit(1);
  stopping = true;
  console.log(`\n${signal}: stopping…`);
  app.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
