/**
 * Validation of a configuration, run once per resolved config. Messages name the option
 * (`session.maxAge: expected a positive whole number of seconds`), so a typo is found at start-up.
 *
 * Written out by hand rather than with a schema library: the validation runs on the first request
 * of every cold process and sits in every middleware bundle, where a schema library cost more
 * (import time and bytes) than the rest of the session path together (issue 19). The checks are
 * small combinators; every problem is reported, in the order of the options below.
 */
import { InvalidConfiguration } from "../errors.js";

type Path = (string | number)[];
interface Problem {
  path: Path;
  message: string;
}
/** Checks a value at a path, adding a problem for each thing wrong with it. */
type Check = (value: unknown, path: Path, problems: Problem[]) => void;

/** How a value is named in "received ..." (a class instance by its class). */
function received(value: unknown): string {
  if (typeof value === "number") return Number.isFinite(value) ? "number" : String(value);
  if (typeof value !== "object") return typeof value;
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  const ctor = (value as { constructor?: { name?: string } }).constructor;
  return Object.getPrototypeOf(value) !== Object.prototype && ctor?.name ? ctor.name : "object";
}

const wrongType = (expected: string, value: unknown) => `Invalid input: expected ${expected}, received ${received(value)}`;

function isObject(value: unknown): value is Record<PropertyKey, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An object with no own constructor trickery: what a record option accepts. */
function isPlainObject(value: unknown): value is Record<PropertyKey, unknown> {
  if (!isObject(value)) return false;
  const ctor = value.constructor;
  if (ctor === undefined || typeof ctor !== "function") return true;
  const prototype: unknown = ctor.prototype;
  return isObject(prototype) && Object.prototype.hasOwnProperty.call(prototype, "isPrototypeOf");
}

const optional =
  (check: Check): Check =>
  (value, path, problems) => {
    if (value !== undefined) check(value, path, problems);
  };

/** A value of one `typeof`; `message` replaces the generic one. */
function ofType(type: "string" | "boolean" | "symbol" | "function", expected: string, message?: string): Check {
  return (value, path, problems) => {
    if (typeof value !== type) problems.push({ path, message: message ?? wrongType(expected, value) });
  };
}

const fn = ofType("function", "function", "expected a function");
const optionalFn = optional(fn);
const optionalBoolean = optional(ofType("boolean", "boolean"));
const optionalString = optional(ofType("string", "string"));

/** A string matching `pattern` (a string of another type gets the generic message unless `typeMessage`). */
function matching(pattern: RegExp, message: string, typeMessage?: string): Check {
  return (value, path, problems) => {
    if (typeof value !== "string") problems.push({ path, message: typeMessage ?? wrongType("string", value) });
    else if (!pattern.test(value)) problems.push({ path, message });
  };
}

function oneOf(values: readonly string[], message: string): Check {
  return (value, path, problems) => {
    if (!values.includes(value as string)) problems.push({ path, message });
  };
}

/** A whole number of seconds, above zero (`positive`) or at least zero. */
function seconds(sign: "positive" | "nonnegative"): Check {
  return (value, path, problems) => {
    if (typeof value !== "number" || !Number.isFinite(value)) {
      problems.push({ path, message: "expected a number of seconds" });
      return;
    }
    if (!Number.isInteger(value)) {
      problems.push({ path, message: "expected a whole number of seconds" });
      return;
    }
    if (!Number.isSafeInteger(value)) problems.push({ path, message: "expected a whole number of seconds" });
    if (sign === "positive" ? value <= 0 : value < 0) {
      problems.push({
        path,
        message: sign === "positive" ? "expected a positive number of seconds" : "expected zero or a positive number of seconds",
      });
    }
  };
}

/** An object whose listed fields are checked; other fields are let through. */
function object(fields: Record<string, Check>): Check {
  return (value, path, problems) => {
    if (!isObject(value)) {
      problems.push({ path, message: wrongType("object", value) });
      return;
    }
    for (const name in fields) fields[name]!(value[name], [...path, name], problems);
  };
}

/** An object of some of the named keys, each checked by `field`; any other key is refused. */
function partialRecord(keys: readonly string[], field: Check): Check {
  return (value, path, problems) => {
    if (!isPlainObject(value)) {
      problems.push({ path, message: wrongType("record", value) });
      return;
    }
    const unknown: string[] = [];
    for (const key of Reflect.ownKeys(value)) {
      if (key === "__proto__" || !Object.prototype.propertyIsEnumerable.call(value, key)) continue;
      if (typeof key === "string" && keys.includes(key)) field(value[key], [...path, key], problems);
      else unknown.push(typeof key === "string" ? JSON.stringify(key) : String(key));
    }
    if (unknown.length) problems.push({ path, message: `Unrecognized key${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}` });
  };
}

const notEmpty = "must not be empty";

/** A non-empty string, or a non-empty list of them. */
const secret: Check = (value, path, problems) => {
  if (typeof value === "string") {
    if (value.length < 1) problems.push({ path, message: notEmpty });
    return;
  }
  if (!Array.isArray(value)) {
    problems.push({ path, message: "expected a non-empty string or a non-empty list of non-empty strings" });
    return;
  }
  value.forEach((item: unknown, index) => {
    if (typeof item !== "string") problems.push({ path: [...path, index], message: wrongType("string", item) });
    else if (item.length < 1) problems.push({ path: [...path, index], message: notEmpty });
  });
  if (value.length < 1) problems.push({ path, message: notEmpty });
};

const PROVIDER_TYPES = ["oidc", "oauth", "email", "credentials", "webauthn"] as const;
const providerObject = object({
  id: matching(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, "expected letters, digits, '-' or '_' (it becomes part of a URL)", "expected a string"),
  name: ofType("string", "string", "expected a string"),
  type: oneOf(PROVIDER_TYPES, `expected one of ${PROVIDER_TYPES.join(", ")}`),
});

/** A provider factory, or a provider object (whose fields are checked). */
const provider: Check = (value, path, problems) => {
  if (typeof value === "function") return;
  if (!isObject(value)) {
    problems.push({ path, message: "expected a provider object or a provider factory function" });
    return;
  }
  providerObject(value, path, problems);
};

const providers: Check = (value, path, problems) => {
  if (!Array.isArray(value)) {
    problems.push({ path, message: "expected a list of providers" });
    return;
  }
  value.forEach((item: unknown, index) => provider(item, [...path, index], problems));
};

const pageUrl = optional(
  (value, path, problems) => {
    if (typeof value !== "string") problems.push({ path, message: wrongType("string", value) });
    else if (!(value.startsWith("/") || /^https?:\/\//.test(value))) problems.push({ path, message: "expected a path or an http(s) URL" });
  },
);

const absoluteUrl: Check = (value, path, problems) => {
  if (typeof value !== "string" || !URL.canParse(value.trim())) problems.push({ path, message: "expected an absolute URL" });
};

/** `inspect`: an observer function, or an observer object (a Stately inspector's `inspect`). */
const inspectOption: Check = (value, path, problems) => {
  if (value === undefined || typeof value === "function") return;
  if (isObject(value) && typeof value.next === "function") return;
  problems.push({ path, message: "expected a function or an observer with a next() method" });
};

/** A positive whole number (`what` names it: "a number of attempts"), when given. */
function positiveWhole(what: string): Check {
  return optional((value, path, problems) => {
    if (typeof value !== "number" || !Number.isFinite(value)) problems.push({ path, message: `expected ${what}` });
    else if (!Number.isInteger(value)) problems.push({ path, message: "expected a whole number" });
    else if (value < 1) problems.push({ path, message: "expected at least 1" });
  });
}

/** A positive number of seconds (fractions allowed: a test may use a short window), when given. */
const windowSeconds: Check = optional((value, path, problems) => {
  if (typeof value !== "number" || !Number.isFinite(value)) problems.push({ path, message: "expected a number of seconds" });
  else if (value <= 0) problems.push({ path, message: "expected a positive number of seconds" });
});

/** `false`, or the options of one limit. */
function limitOrOff(fields: Record<string, Check>): Check {
  const check = object(fields);
  return optional((value, path, problems) => {
    if (value !== false) check(value, path, problems);
  });
}

const attempts = positiveWhole("a number of attempts");

/** `rateLimit`: `false`, or the limits, their store, and how the client address is found. */
const rateLimitOption: Check = (value, path, problems) => {
  if (value === false) return;
  if (!isObject(value)) {
    problems.push({ path, message: "expected false or rate-limit options" });
    return;
  }
  object({
    credentials: limitOrOff({ perAddress: attempts, perClient: attempts, perIdentifier: attempts, window: windowSeconds }),
    email: limitOrOff({ perEmail: attempts, window: windowSeconds, perClient: attempts, clientWindow: windowSeconds, mailEvery: (v, at, found) => void (v !== false && windowSeconds(v, at, found)) }),
    requests: limitOrOff({ perClient: attempts, window: windowSeconds }),
    store: optional((store, at, found) => {
      if (!isObject(store) || typeof store.hit !== "function" || typeof store.reset !== "function") {
        found.push({ path: at, message: "expected a store with hit(key, windowMs) and reset(key)" });
      }
    }),
    clientAddress: optionalFn,
    trustProxy: optional((proxies, at, found) => {
      if (typeof proxies === "boolean") return;
      if (typeof proxies !== "number" || !Number.isInteger(proxies) || proxies < 1) {
        found.push({ path: at, message: "expected true, false or a number of proxies" });
      }
    }),
    maxKeys: positiveWhole("a positive whole number"),
    namespace: optional(matching(/^[\w.:-]{1,64}$/, "expected up to 64 letters, digits, '.', ':', '-' or '_'")),
  })(value, path, problems);
};

/** Every option the configuration knows, in the order its problems are reported. */
const options = {
  providers,
  adapter: optional(object({})),
  basePath: optional(matching(/^\/[^?#]*[^/?#]$|^\/$/, "expected a path that starts with '/' and has no trailing '/', query or fragment")),
  secret: optional(secret),
  session: optional(
    object({
      strategy: optional(oneOf(["jwt", "database"], "expected 'jwt' or 'database'")),
      maxAge: optional(seconds("positive")),
      updateAge: optional(seconds("nonnegative")),
      generateSessionToken: optionalFn,
      acceptAuthJsCookies: optional(ofType("boolean", "boolean", "expected true or false")),
    }),
  ),
  jwt: optional(object({ maxAge: optional(seconds("positive")), encode: optionalFn, decode: optionalFn })),
  callbacks: optional(object({ signIn: optionalFn, redirect: optionalFn, jwt: optionalFn, session: optionalFn, authorized: optionalFn })),
  events: optional(
    object({
      signIn: optionalFn,
      signOut: optionalFn,
      createUser: optionalFn,
      updateUser: optionalFn,
      linkAccount: optionalFn,
      session: optionalFn,
      rateLimited: optionalFn,
      twoFactorEnrolled: optionalFn,
      twoFactorChallenged: optionalFn,
      twoFactorPassed: optionalFn,
      twoFactorFailed: optionalFn,
      twoFactorRemoved: optionalFn,
    }),
  ),
  pages: optional(object({ signIn: pageUrl, signOut: pageUrl, error: pageUrl, verifyRequest: pageUrl, newUser: pageUrl })),
  // Partial: overriding one cookie must not require listing all eight.
  cookies: optional(
    partialRecord(
      ["sessionToken", "callbackUrl", "csrfToken", "pkceCodeVerifier", "state", "nonce", "webauthnChallenge", "pageHint", "device", "twoFactorRemembered"],
      object({
        name: optional(matching(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/, "expected a valid cookie name")),
        options: optional(object({})),
      }),
    ),
  ),
  useSecureCookies: optionalBoolean,
  trustHost: optionalBoolean,
  redirectProxyUrl: optional(absoluteUrl),
  debug: optionalBoolean,
  logger: optional(object({ error: optionalFn, warn: optionalFn, debug: optionalFn })),
  experimental: optional(object({ enableWebAuthn: optionalBoolean })),
  theme: optional(
    object({
      colorScheme: optional(oneOf(["auto", "dark", "light"], "expected 'auto', 'dark' or 'light'")),
      logo: optionalString,
      brandColor: optionalString,
      buttonText: optionalString,
      brandName: optionalString,
    }),
  ),
  skipCSRFCheck: optional(ofType("symbol", "symbol")),
  inspect: inspectOption,
  rateLimit: optional(rateLimitOption),
  twoFactor: optional(
    object({
      issuer: optional(matching(/^[^:]{1,64}$/, "expected 1 to 64 characters without ':' (it names the site in authenticator apps)")),
      recoveryCodes: optional((value, path, problems) => {
        if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > 50) {
          problems.push({ path, message: "expected a whole number of codes from 1 to 50" });
        }
      }),
      endOtherSessions: optionalBoolean,
      required: (value, path, problems) => {
        if (value !== undefined && typeof value !== "boolean" && typeof value !== "function") {
          problems.push({ path, message: "expected true, false or a function of the user" });
        }
      },
      rememberBrowser: (value, path, problems) => {
        if (value === undefined || typeof value === "boolean") return;
        const maxAge = typeof value === "object" && value !== null ? (value as { maxAge?: unknown }).maxAge : null;
        const extra = typeof value === "object" && value !== null && Object.keys(value).some((key) => key !== "maxAge");
        if (maxAge === null || extra || (maxAge !== undefined && (typeof maxAge !== "number" || !Number.isInteger(maxAge) || maxAge < 60 || maxAge > 400 * 24 * 60 * 60))) {
          problems.push({ path, message: "expected true, false or { maxAge } in whole seconds from 60 to 400 days" });
        }
      },
      passkeyCountsAsBoth: optionalBoolean,
    }),
  ),
} satisfies Record<string, Check>;

/** The top-level options a configuration may set (the ones validated here). */
export const CONFIG_OPTIONS: readonly string[] = Object.keys(options);

const configShape = object(options);

/** Validates the shape of a configuration; throws `InvalidConfiguration` naming every bad option. */
export function validateConfigShape(config: unknown): void {
  const problems: Problem[] = [];
  configShape(config, [], problems);
  if (!problems.length) return;
  const lines = problems.map(({ path, message }) => {
    const where = path.map((p) => (typeof p === "number" ? `[${p}]` : `.${p}`)).join("").replace(/^\./, "");
    return `${where || "config"}: ${message}`;
  });
  throw new InvalidConfiguration(`Invalid appauth configuration:\n  ${lines.join("\n  ")}`);
}
