/**
 * A configuration resolved for use: environment defaults merged, defaults applied, options
 * validated and the flows' machines bound to their effects. Built once per config object (cached
 * in a WeakMap), so the per-request cost is one lookup; several configs in a process never share state.
 */
import { defaultCookies, type ResolvedCookies } from "../cookies.js";
import {
  ExperimentalFeatureNotEnabled,
  InvalidConfiguration,
  MissingAdapter,
  MissingAdapterMethods,
  MissingAuthorize,
  MissingSecret,
} from "../errors.js";
import { decodeWithSecretIndex, encode as defaultEncode, DEFAULT_MAX_AGE } from "../jwt/index.js";
import { createLogger } from "../logger.js";
import { defaultRedirect } from "../redirect.js";
import { nodemailerSender, optionsMerged, skipCSRFCheck } from "../symbols.js";
import type {
  Adapter,
  EmailConfig,
  AuthConfig,
  CallbacksOptions,
  EventCallbacks,
  InspectionObserver,
  JWT,
  JWTDecodeParams,
  JWTEncodeParams,
  LoggerInstance,
  PagesOptions,
  ProviderConfig,
  Session,
} from "../types.js";
import { resolveFederation, type Federation } from "./federation.js";
import { envDefaults, envProviderOptions, isProduction, processEnv, providerEnvDefaults, urlFromEnv, type Env } from "./env.js";
import { validateConfigShape } from "./schema.js";

export interface ResolvedTheme {
  colorScheme: "auto" | "dark" | "light";
  logo?: string;
  brandColor?: string;
  buttonText?: string;
}

export interface Runtime {
  config: AuthConfig;
  adapter?: Adapter;
  env: Env;
  basePath: string;
  /** Newest first: the first encrypts and signs, all of them decrypt and verify. */
  secrets: string[];
  trustHost: boolean;
  /** `APPAUTH_URL`/`AUTH_URL`, when set: the origin every request is answered on. */
  envUrl?: URL;
  useSecureCookies?: boolean;
  providers: ProviderConfig[];
  providerById: ReadonlyMap<string, ProviderConfig>;
  session: { strategy: "jwt" | "database"; maxAge: number; updateAge: number; generateSessionToken: () => string };
  jwt: {
    maxAge: number;
    encode: (params: JWTEncodeParams) => Promise<string>;
    decode: (params: JWTDecodeParams) => Promise<{ payload: JWT; secretIndex: number } | null>;
  };
  callbacks: Required<Pick<CallbacksOptions, "signIn" | "redirect" | "jwt" | "session">>;
  /** Which of `jwt` and `session` the application set: the session machines run the defaults themselves. */
  configuredCallbacks: { jwt: boolean; session: boolean };
  /** Whether debug messages go anywhere (so hot paths can skip building them). */
  debugEnabled: boolean;
  events: EventCallbacks;
  pages: PagesOptions;
  theme: ResolvedTheme;
  logger: LoggerInstance;
  skipCSRFCheck: boolean;
  inspect?: InspectionObserver;
  cookies(secure: boolean): ResolvedCookies;
  /** Token refresh and federated logout of the OAuth/OIDC providers. */
  federation: Federation;
}

const runtimes = new WeakMap<AuthConfig, Runtime | { failed: unknown }>();

/**
 * The runtime for `config`, built and validated on first use. Throws an `AuthError` for a bad
 * config; the failure is remembered too, so a broken config is diagnosed once, not per request.
 */
export function getRuntime(config: AuthConfig, env: Env = processEnv()): Runtime {
  const cached = runtimes.get(config);
  if (cached) {
    if ("failed" in cached) throw cached.failed;
    return cached;
  }
  try {
    const runtime = buildRuntime(config, env);
    runtimes.set(config, runtime);
    return runtime;
  } catch (error) {
    runtimes.set(config, { failed: error });
    throw error;
  }
}

/** Development only: one random secret per process, so sessions survive a request but never a restart. */
let developmentSecret: string | undefined;

function resolveSecrets(config: AuthConfig, env: Env, logger: LoggerInstance): string[] {
  const secret = config.secret;
  if (secret !== undefined) return Array.isArray(secret) ? [...secret] : [secret];
  if (isProduction(env)) {
    throw new MissingSecret("Please define a `secret` (or set APPAUTH_SECRET / AUTH_SECRET) in production.");
  }
  logger.warn(
    "MissingSecret",
    "No secret configured: using a random development secret; sessions end when the process restarts. Set APPAUTH_SECRET.",
  );
  developmentSecret ??= Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, "0")).join("");
  return [developmentSecret];
}

function resolveProviders(config: AuthConfig, env: Env): ProviderConfig[] {
  return config.providers.map((entry) => {
    let base = typeof entry === "function" ? entry() : entry;
    if (typeof entry === "function") {
      // A factory listed bare gets AUTH_<ID>_ID/_SECRET/_ISSUER as its options, so its own clean-up
      // applies and an env issuer wins over the factory's default.
      const fromEnv = envProviderOptions(env, base.id);
      if (Object.keys(fromEnv).length) base = (entry as (options: Record<string, string>) => ProviderConfig)(fromEnv);
    }
    // `options` holds the user's overrides of a factory's defaults, unless the factory merged them itself.
    const alreadyMerged = (base as { [optionsMerged]?: boolean })[optionsMerged] === true;
    const merged = (alreadyMerged ? base : { ...base, ...(base.options ?? {}) }) as ProviderConfig;
    return { ...merged, ...providerEnvDefaults(env, merged) } as ProviderConfig;
  });
}

function checkProviders(providers: ProviderConfig[], config: AuthConfig): void {
  const seen = new Set<string>();
  providers.forEach((provider, index) => {
    const where = `providers[${index}] (${provider.id})`;
    if (seen.has(provider.id)) throw new InvalidConfiguration(`${where}: the id "${provider.id}" is used twice.`);
    seen.add(provider.id);
    if (provider.type === "credentials" && typeof provider.authorize !== "function") {
      throw new MissingAuthorize(`${where}: a credentials provider needs an \`authorize\` function.`);
    }
    if (provider.type === "webauthn" && !config.experimental?.enableWebAuthn) {
      throw new ExperimentalFeatureNotEnabled(`${where}: WebAuthn is experimental; set experimental.enableWebAuthn.`);
    }
    if (provider.type === "webauthn" && !bringsCeremony(provider)) {
      throw new InvalidConfiguration(
        `${where}: create WebAuthn providers with WebAuthn() or Passkey() from appauth/providers/webauthn (they bring the ceremony's implementation).`,
      );
    }
    if (provider.type === "email") checkEmailProvider(provider as EmailConfig, where);

  });
}

/** The adapter methods each part of a configuration calls. */
const NEEDED_METHODS = {
  database: ["createSession", "getSessionAndUser", "updateSession", "deleteSession"],
  accounts: ["getUserByAccount", "getUserByEmail", "getUser", "createUser", "linkAccount"],
  email: ["createVerificationToken", "useVerificationToken", "updateUser"],
  webauthn: [
    "createAuthenticator",
    "getAuthenticator",
    "listAuthenticatorsByUserId",
    "updateAuthenticatorCounter",
    "createVerificationToken",
    "useVerificationToken",
  ],
} as const;

/** A configuration that will call an adapter method the adapter lacks fails now, naming them all. */
function checkAdapter(adapter: Adapter | undefined, strategy: "jwt" | "database", providers: ProviderConfig[]): void {
  if (strategy === "database" && !adapter) {
    throw new InvalidConfiguration("session.strategy: the database strategy needs an `adapter`.");
  }
  const stored = providers.find((p) => p.type === "email" || p.type === "webauthn");
  if (stored && !adapter) {
    throw new MissingAdapter(`providers (${stored.id}): ${stored.type} sign-in keeps its records through an \`adapter\`; none is set.`);
  }
  if (!adapter) return;
  const needed = new Set<string>();
  if (strategy === "database") NEEDED_METHODS.database.forEach((m) => needed.add(m));
  if (providers.some((p) => p.type !== "credentials")) {
    NEEDED_METHODS.accounts.forEach((m) => needed.add(m));
  }
  if (providers.some((p) => p.type === "email")) NEEDED_METHODS.email.forEach((m) => needed.add(m));
  if (providers.some((p) => p.type === "webauthn")) NEEDED_METHODS.webauthn.forEach((m) => needed.add(m));
  const missing = [...needed].filter((method) => typeof (adapter as Record<string, unknown>)[method] !== "function");
  if (missing.length) {
    throw new MissingAdapterMethods(`adapter: the configuration needs the adapter methods ${missing.join(", ")}.`);
  }
}

/** Whether a WebAuthn provider carries @simplewebauthn/server's functions (the core does not import them). */
function bringsCeremony(provider: ProviderConfig): boolean {
  const ceremony = (provider as { simpleWebAuthn?: Record<string, unknown> }).simpleWebAuthn;
  return ["generateRegistrationOptions", "generateAuthenticationOptions", "verifyRegistrationResponse", "verifyAuthenticationResponse"].every(
    (name) => typeof ceremony?.[name] === "function",
  );
}

/** An email provider that cannot send is found when the config is resolved, not at the first sign-in. */
function checkEmailProvider(provider: EmailConfig, where: string): void {
  if (typeof provider.sendVerificationRequest !== "function") {
    throw new InvalidConfiguration(`${where}: an email provider needs a \`server\` or a \`sendVerificationRequest\`.`);
  }
  // The default sender is recognised by its mark: importing it here would put nodemailer on the
  // path of every config resolution, middleware on an edge runtime included.
  if ((provider.sendVerificationRequest as { [nodemailerSender]?: true })[nodemailerSender] === true) {
    if (!provider.server) throw new InvalidConfiguration(`${where}: \`server\` is required to send mail through nodemailer.`);
    if (typeof provider.from !== "string" || !provider.from.includes("@")) {
      throw new InvalidConfiguration(`${where}: \`from\` must be the sender's address, e.g. "Acme <no-reply@acme.example>".`);
    }
  }
  if (provider.maxAge !== undefined && !(Number.isFinite(provider.maxAge) && provider.maxAge > 0)) {
    throw new InvalidConfiguration(`${where}: \`maxAge\` must be a positive number of seconds.`);
  }
}

function randomSessionToken(): string {
  return crypto.randomUUID();
}

function buildRuntime(userConfig: AuthConfig, env: Env): Runtime {
  validateConfigShape(userConfig);
  const config: AuthConfig = { ...userConfig, ...envDefaults(env, userConfig) };
  const logger = createLogger(config.logger, config.debug ?? false);
  const secrets = resolveSecrets(config, env, logger);

  const providers = resolveProviders(config, env);
  checkProviders(providers, config);

  if (config.skipCSRFCheck !== undefined && config.skipCSRFCheck !== skipCSRFCheck) {
    throw new InvalidConfiguration("skipCSRFCheck: expected the `skipCSRFCheck` symbol exported by appauth.");
  }
  if (config.experimental?.enableWebAuthn) {
    logger.warn("ExperimentalFeature", "experimental.enableWebAuthn is on: it may change or be removed without notice.");
  }

  const strategy = config.session?.strategy ?? (config.adapter ? "database" : "jwt");
  checkAdapter(config.adapter, strategy, providers);
  const federation = resolveFederation(providers, config.adapter, strategy, logger);

  const envUrlRaw = urlFromEnv(env);
  let envUrl: URL | undefined;
  if (envUrlRaw) {
    try {
      envUrl = new URL(envUrlRaw);
    } catch {
      throw new InvalidConfiguration(`APPAUTH_URL/AUTH_URL: "${envUrlRaw}" is not an absolute URL.`);
    }
  }

  const maxAge = config.session?.maxAge ?? DEFAULT_MAX_AGE;
  const jwtMaxAge = config.jwt?.maxAge ?? maxAge;
  const customEncode = config.jwt?.encode;
  const customDecode = config.jwt?.decode;

  const cookieSets = new Map<boolean, ResolvedCookies>();
  const cookies = (secure: boolean): ResolvedCookies => {
    let set = cookieSets.get(secure);
    if (!set) {
      set = defaultCookies(secure, config.cookies);
      cookieSets.set(secure, set);
    }
    return set;
  };

  const userCallbacks = config.callbacks ?? {};
  return {
    config,
    adapter: config.adapter,
    env,
    basePath: config.basePath ?? "/auth",
    secrets,
    trustHost: config.trustHost ?? false,
    envUrl,
    useSecureCookies: config.useSecureCookies,
    providers,
    providerById: new Map(providers.map((p) => [p.id, p])),
    session: {
      strategy,
      maxAge,
      updateAge: config.session?.updateAge ?? 86400,
      generateSessionToken: config.session?.generateSessionToken ?? randomSessionToken,
    },
    jwt: {
      maxAge: jwtMaxAge,
      encode: async (params) => (customEncode ? customEncode(params) : defaultEncode(params)),
      decode: async (params) => {
        if (!customDecode) return decodeWithSecretIndex(params);
        const payload = await customDecode(params);
        return payload ? { payload, secretIndex: 0 } : null;
      },
    },
    callbacks: {
      signIn: userCallbacks.signIn ?? (() => true),
      redirect: userCallbacks.redirect ?? defaultRedirect,
      jwt: userCallbacks.jwt ?? (({ token }) => token),
      session: userCallbacks.session ?? defaultSessionCallback,
    },
    configuredCallbacks: { jwt: userCallbacks.jwt !== undefined, session: userCallbacks.session !== undefined },
    debugEnabled: Boolean(config.debug || config.logger?.debug),
    events: config.events ?? {},
    pages: config.pages ?? {},
    theme: {
      colorScheme: config.theme?.colorScheme ?? "auto",
      logo: config.theme?.logo,
      brandColor: config.theme?.brandColor,
      buttonText: config.theme?.buttonText,
    },
    logger,
    skipCSRFCheck: config.skipCSRFCheck === skipCSRFCheck,
    federation,
    inspect: config.inspect,
    cookies,
  };
}

/** By default only the name, email and picture of the token reach the client. */
function defaultSessionCallback({ session }: { session: Session }): Session {
  return session;
}
