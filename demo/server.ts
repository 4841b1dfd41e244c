/**
 * `npm start`: runs the demo on http://localhost:$PORT (default 3000) until SIGINT or SIGTERM.
 * Everything else lives in app.ts, so tests start the same app in-process.
 */
import { DEMO_USER, startDemo } from "./app.js";

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
let demo: Awaited<ReturnType<typeof startDemo>>;
try {
  demo = await startDemo({ port });
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code;
  console.error(code === "EADDRINUSE" ? `Port ${port} is in use: set PORT to another one.` : error);
  process.exit(1);
}

const secretNote = {
  env: "from APPAUTH_SECRET / AUTH_SECRET",
  file: "from demo/.data/secret",
  generated: "generated and saved to demo/.data/secret",
  option: "given to startDemo",
}[demo.secretSource];

console.log(`appauth demo listening on ${demo.url}
  sign in with username "${DEMO_USER.username}" and password "${DEMO_USER.password}",
  or with the bundled OpenID Provider (${demo.issuer}): no account needed
  secret: ${secretNote}
  press Ctrl+C to stop`);

let stopping = false;
function stop(signal: NodeJS.Signals): void {
  if (stopping) {
    // A second signal means "now".
    process.exit(1);
  }
  stopping = true;
  console.log(`\n${signal}: closing the server...`);
  demo.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
