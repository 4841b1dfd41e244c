// The measured part of a cold start, the same for both libraries. The Request, Response and Headers
// classes are used once before the clock starts: Node loads them on first use (tens of ms), and a
// server or framework has done so before it hands a library its first request.
const warm = new Request("http://localhost:3000/");
new Response("", { headers: new Headers() });
void warm;

const SECRET = "9f1c2e7a4b6d8f0a1c3e5f7a9b1d3f5e7a9c1e3f5a7b9d1f3e5a7c9e1b3d5f7a";

/** Runs `load` (the imports), builds the config, answers GET /session without a cookie; prints the times as JSON. */
export async function coldStart(load) {
  const request = new Request("http://localhost:3000/api/auth/session");
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const { Auth, Credentials } = await load();
  const t1 = performance.now();
  const config = {
    basePath: "/api/auth",
    secret: SECRET,
    trustHost: true,
    providers: [
      Credentials({
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        authorize: async () => null,
      }),
    ],
  };
  const response = await Auth(request, config);
  const body = await response.text();
  const t2 = performance.now();
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(
    JSON.stringify({ importMs: t1 - t0, totalMs: t2 - t0, cpuMs: (cpu.user + cpu.system) / 1000, status: response.status, body }),
  );
}
