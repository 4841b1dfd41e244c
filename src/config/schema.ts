/**
 * Validation of a configuration, run once per resolved config. Messages name the option
 * (`session.maxAge: expected a positive whole number of seconds`), so a typo is found at start-up.
 */
import { z } from "zod";
import { InvalidConfiguration } from "../errors.js";

const fn = z.custom<(...args: never[]) => unknown>((v) => typeof v === "function", { message: "expected a function" });
const optionalFn = fn.optional();
const seconds = z.number({ message: "expected a number of seconds" }).int("expected a whole number of seconds");

const providerObject = z.looseObject({
  id: z
    .string({ message: "expected a string" })
    .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, "expected letters, digits, '-' or '_' (it becomes part of a URL)"),
  name: z.string({ message: "expected a string" }),
  type: z.enum(["oidc", "oauth", "email", "credentials", "webauthn"], {
    message: "expected one of oidc, oauth, email, credentials, webauthn",
  }),
});

const pageUrl = z.string().refine((v) => v.startsWith("/") || /^https?:\/\//.test(v), "expected a path or an http(s) URL");

export const configSchema = z.looseObject({
  providers: z.array(z.union([fn, providerObject], { message: "expected a provider object or a provider factory function" }), {
    message: "expected a list of providers",
  }),
  adapter: z.looseObject({}).optional(),
  basePath: z
    .string()
    .regex(/^\/[^?#]*[^/?#]$|^\/$/, "expected a path that starts with '/' and has no trailing '/', query or fragment")
    .optional(),
  secret: z
    .union([z.string().min(1, "must not be empty"), z.array(z.string().min(1, "must not be empty")).min(1, "must not be empty")], {
      message: "expected a non-empty string or a non-empty list of non-empty strings",
    })
    .optional(),
  session: z
    .looseObject({
      strategy: z.enum(["jwt", "database"], { message: "expected 'jwt' or 'database'" }).optional(),
      maxAge: seconds.positive("expected a positive number of seconds").optional(),
      updateAge: seconds.nonnegative("expected zero or a positive number of seconds").optional(),
      generateSessionToken: optionalFn,
    })
    .optional(),
  jwt: z
    .looseObject({
      maxAge: seconds.positive("expected a positive number of seconds").optional(),
      encode: optionalFn,
      decode: optionalFn,
    })
    .optional(),
  callbacks: z
    .looseObject({ signIn: optionalFn, redirect: optionalFn, jwt: optionalFn, session: optionalFn, authorized: optionalFn })
    .optional(),
  events: z
    .looseObject({
      signIn: optionalFn,
      signOut: optionalFn,
      createUser: optionalFn,
      updateUser: optionalFn,
      linkAccount: optionalFn,
      session: optionalFn,
    })
    .optional(),
  pages: z
    .looseObject({
      signIn: pageUrl.optional(),
      signOut: pageUrl.optional(),
      error: pageUrl.optional(),
      verifyRequest: pageUrl.optional(),
      newUser: pageUrl.optional(),
    })
    .optional(),
  cookies: z
    // Partial: overriding one cookie must not require listing all seven.
    .partialRecord(
      z.enum(["sessionToken", "callbackUrl", "csrfToken", "pkceCodeVerifier", "state", "nonce", "webauthnChallenge"]),
      z.looseObject({
        name: z.string().regex(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/, "expected a valid cookie name").optional(),
        options: z.looseObject({}).optional(),
      }),
    )
    .optional(),
  useSecureCookies: z.boolean().optional(),
  trustHost: z.boolean().optional(),
  redirectProxyUrl: z.url({ message: "expected an absolute URL" }).optional(),
  debug: z.boolean().optional(),
  logger: z.looseObject({ error: optionalFn, warn: optionalFn, debug: optionalFn }).optional(),
  experimental: z.looseObject({ enableWebAuthn: z.boolean().optional() }).optional(),
  theme: z
    .looseObject({
      colorScheme: z.enum(["auto", "dark", "light"], { message: "expected 'auto', 'dark' or 'light'" }).optional(),
      logo: z.string().optional(),
      brandColor: z.string().optional(),
      buttonText: z.string().optional(),
    })
    .optional(),
  skipCSRFCheck: z.symbol().optional(),
  inspect: optionalFn,
});

type Issue = { path: PropertyKey[]; message: string; code?: string; errors?: Issue[][] };

/**
 * A union's own message is only "Invalid input". When one of its branches got past the root (a
 * provider object with a bad field), that branch's issues say what is wrong, at their full path.
 */
function explainUnion(issue: Issue): Issue[] {
  if (issue.code !== "invalid_union" || !issue.errors) return [issue];
  const deeper = issue.errors.find((branch) => branch.some((i) => i.path.length > 0));
  if (!deeper) return [issue];
  return deeper.flatMap((i) => explainUnion({ ...i, path: [...issue.path, ...i.path] }));
}

/** Validates the shape of a configuration; throws `InvalidConfiguration` naming every bad option. */
export function validateConfigShape(config: unknown): void {
  const result = configSchema.safeParse(config);
  if (result.success) return;
  const problems = result.error.issues.flatMap(explainUnion).map((issue) => {
    const path = issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("").replace(/^\./, "");
    return `${path || "config"}: ${issue.message}`;
  });
  throw new InvalidConfiguration(`Invalid appauth configuration:\n  ${problems.join("\n  ")}`);
}
