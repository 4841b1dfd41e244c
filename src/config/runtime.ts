/**
 * A configuration resolved for use: environment defaults merged, defaults applied, options
 * validated and the flows' machines bound to their effects. Built once per config object (cached
 * in a WeakMap), so the per-request cost is one lookup; several configs in a process never share state.
 */
import { reportingStoreFaults } from "../adapter-faults.js";
import { defaultCookies, type ResolvedCookies } from "../cookies.js";
import {
  AuthError,
  ExperimentalFeatureNotEnabled,
  InvalidConfiguration,
  MissingAdapter,
  MissingAdapterMethods,
  MissingAuthorize,
  MissingSecret,
  troubleshootingUrl,
} from "../errors.js";
import { decodeWithSecretIndex, encode as defaultEncode, DEFAULT_MAX_AGE } from "../jwt/index.js";
import { consoleLogger, createLogger, processOnce, reportOnce } from "../logger.js";
import { defaultRedirect } from "../redirect.js";
import { nodemailerSender, optionsMerged, skipCSRFCheck } from "../symbols.js";
import type {
  Adapter,
  AdapterAccount,
  AdapterUser,
  Awaitable,
  DefaultSession,
  CredentialsConfig,
  EmailConfig,
  AuthConfig,
  CallbacksOptions,
  EventCallbacks,
  JWT,
  JWTDecodeParams,
  JWTEncodeParams,
  LoggerInstance,
  PagesOptions,
  ProviderConfig,
  Session,
  User,
} from "../types.js";
import type { InspectionEvent } from "xstate";
import type { ExtendedAdapter } from "../adapters/extensions.js";
import { REMEMBER_METHODS, TWO_FACTOR_METHODS } from "../two-factor/methods.js";
import type { TwoFactorOptions } from "../two-factor/options.js";
import { inspectionFor } from "../flows/inspect.js";
import { resolveFederation, type Federation } from "./federation.js";
import {
  envDefaults,
  envProviderKey,
  envProviderOptions,
  isProduction,
  processEnv,
  providerEnvDefaults,
  urlFromEnv,
  type Env,
} from "./env.js";
import { validateConfigShape } from "./schema.js";
import { createLimiter, type Limiter } from "../rate-limit/limiter.js";
import { identifierField } from "../rate-limit/attempt.js";
import { checkFapiOptions } from "../oauth/fapi-profile.js";
import type { OAuthProviderConfig } from "../providers/oauth-types.js";

export interface ResolvedTheme {
  colorScheme: "auto" | "dark" | "light";
  logo?: string;
  brandColor?: string;
  buttonText?: string;
  brandName?: string;
}

/**
 * The callbacks as the library calls them, typed by what each call really passes: `user` only at
 * sign-in, `token` only with JWT sessions, `user` only with database sessions. The public
 * `CallbacksOptions` types them as Auth.js does, so that Auth.js callbacks compile unchanged.
 */
export interface RuntimeCallbacks {
  signIn: NonNullable<CallbacksOptions["signIn"]>;
  redirect: NonNullable<CallbacksOptions["redirect"]>;
  jwt: (
    params: Omit<Parameters<NonNullable<CallbacksOptions["jwt"]>>[0], "user"> & { user?: User | AdapterUser },
  ) => Awaitable<JWT | null>;
  session: (params: {
    session: Session;
    token?: JWT;
    user?: AdapterUser;
    account?: AdapterAccount;
    newSession?: unknown;
    trigger?: "update";
  }) => Awaitable<Session | DefaultSession>;
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
  /**
   * Development only: providers that cannot work as configured (an OAuth provider without a client
   * id), with what to set. The sign-in page shows them disabled with that note instead of a button
   * that ends on an error page; production refuses such a config outright.
   */
  unavailable: ReadonlyMap<string, string>;
  session: {
    strategy: "jwt" | "database";
    maxAge: number;
    updateAge: number;
    generateSessionToken: () => string;
    /** Read (once) the session cookies Auth.js made: see session/legacy-session.ts. */
    acceptAuthJsCookies: boolean;
  };
  jwt: {
    maxAge: number;
    encode: (params: JWTEncodeParams) => Promise<string>;
    decode: (params: JWTDecodeParams) => Promise<{ payload: JWT; secretIndex: number } | null>;
  };
  callbacks: RuntimeCallbacks;
  /** Which of `jwt` and `session` the application set: the session machines run the defaults themselves. */
  configuredCallbacks: { jwt: boolean; session: boolean };
  /** Whether debug messages go anywhere (so hot paths can skip building them). */
  debugEnabled: boolean;
  events: EventCallbacks;
  pages: PagesOptions;
  theme: ResolvedTheme;
  logger: LoggerInstance;
  skipCSRFCheck: boolean;
  /** XState's `inspect` function for the configured observer: redacted events, a shielded observer. */
  inspect?: (event: InspectionEvent) => void;
  cookies(secure: boolean): ResolvedCookies;
  /** Token refresh and federated logout of the OAuth/OIDC providers. */
  federation: Federation;
  /** Brute-force and flood protection; absent with `rateLimit: false`. One per configuration. */
  rateLimit?: Limiter;
  /** What the flows build once for this configuration and keep (see `RuntimeServices`). */
  services: RuntimeServices;
  /** The `twoFactor` option; absent, no sign-in is challenged and nothing is looked up. */
  twoFactor?: TwoFactorOptions;
}

/**
 * The runtime's own services, each made by the first request that needs it and kept for the next
 * ones. Empty slots at first: the modules that fill them (the OAuth client, the token refresh, the
 * sign-in flows) are imported by the requests that use them, never by resolving a config (issue 19).
 */
export interface RuntimeServices {
  /**
   * What a flow builds once for this runtime, by the function that builds it (see `bound`): flows'
   * machines bound to the runtime's effects, the OAuth providers' servers (`oauth/servers.ts`), the
   * token refresher (`flows/token-refresh.ts`). Keyed by function, so this module names none of
   * their types and imports none of their modules.
   */
  readonly bound: Map<(rt: Runtime) => unknown, unknown>;
}

/** A flow's machines bound to the runtime's effects, bound the first time a request needs them (binding costs more than a whole flow). */
export function bound<T>(rt: Runtime, bind: (rt: Runtime) => T): T {
  const flows = rt.services.bound;
  if (!flows.has(bind)) flows.set(bind, bind(rt));
  return flows.get(bind) as T;
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
    // Logged here, at the first resolution, and never again for this config: every later request
    // is answered from the remembered failure.
    reportConfigFault(config?.logger, error);
    throw error;
  }
}

const reportedFaults = new WeakSet<object>();

/**
 * Logs a configuration fault at `error`, once per error object: a remembered failure is thrown to
 * every request, and each of them must not print it again.
 */
export function reportConfigFault(logger: Partial<LoggerInstance> | undefined, error: unknown): void {
  if (typeof error === "object" && error !== null) {
    if (reportedFaults.has(error)) return;
    reportedFaults.add(error);
  }
  const log = typeof logger?.error === "function" ? logger.error.bind(logger) : consoleLogger.error;
  log(error instanceof AuthError ? error.type : "Configuration", error);
}

/** Whether `error` is a configuration fault already logged at its first resolution. */
export function isReportedFault(error: unknown): boolean {
  return typeof error === "object" && error !== null && reportedFaults.has(error);
}

/** Warnings meant once per process and logger, not once per config object (a lazy config makes many). */
function warnOnce(logger: LoggerInstance, configLogger: object | undefined, fault: { code: string; message: string; anchor?: string }): void {
  reportOnce(configLogger ?? processOnce, logger.warn, fault);
}

/** Below this many characters a secret is guessable enough to forge sessions offline. */
const MIN_SECRET_LENGTH = 32;
const GENERATE_SECRET = "Generate one with `openssl rand -base64 33` (or `node -e \"console.log(crypto.randomBytes(33).toString('base64'))\"`)";

/** Development only: one random secret per process, so sessions survive a request but never a restart. */
let developmentSecret: string | undefined;

function resolveSecrets(config: AuthConfig, env: Env, logger: LoggerInstance): string[] {
  const secret = config.secret;
  if (secret !== undefined) {
    const list = Array.isArray(secret) ? [...secret] : [secret];
    if (list.some((s) => typeof s === "string" && s.length < MIN_SECRET_LENGTH)) {
      warnOnce(logger, config.logger, {
        code: "WeakSecret",
        message: `A secret is shorter than ${MIN_SECRET_LENGTH} characters: sessions sealed with it can be forged by guessing it. ${GENERATE_SECRET} and set it as AUTH_SECRET.`,
      });
    }
    return list;
  }
  if (isProduction(env)) {
    throw new MissingSecret(
      `No secret: set AUTH_SECRET (or APPAUTH_SECRET, or the \`secret\` option) in production. ${GENERATE_SECRET}. A build that gets its secrets only at run time needs it there, not at build time. See ${troubleshootingUrl("MissingSecret")}`,
    );
  }
  warnOnce(logger, config.logger, {
    code: "MissingSecret",
    message: `No secret configured: using a random development secret; sessions end when the process restarts. ${GENERATE_SECRET} and set it as AUTH_SECRET.`,
  });
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
    if (provider.type === "credentials") checkIdentifierField(provider as CredentialsConfig, config, where);
    if (provider.type === "webauthn" && !config.experimental?.enableWebAuthn) {
      throw new ExperimentalFeatureNotEnabled(`${where}: WebAuthn is experimental; set experimental.enableWebAuthn.`);
    }
    if (provider.type === "webauthn" && !bringsCeremony(provider)) {
      throw new InvalidConfiguration(
        `${where}: create WebAuthn providers with WebAuthn() or Passkey() from appauth/providers/webauthn (they bring the ceremony's implementation).`,
      );
    }
    if (provider.type === "email") checkEmailProvider(provider as EmailConfig, where);
    if (provider.type === "oauth" || provider.type === "oidc") checkFapiOptions(provider as unknown as OAuthProviderConfig);

  });
}

/**
 * OAuth providers without a client id: the authorization request cannot be made. In production the
 * config is refused; in development each is reported once and shown disabled on the sign-in page.
 */
function unconfiguredProviders(providers: ProviderConfig[], env: Env, logger: LoggerInstance, configLogger: object | undefined) {
  const unavailable = new Map<string, string>();
  providers.forEach((provider, index) => {
    if (provider.type !== "oauth" && provider.type !== "oidc") return;
    if (typeof (provider as { clientId?: unknown }).clientId === "string" && (provider as { clientId: string }).clientId !== "") return;
    const key = envProviderKey(provider.id);
    const fix = `set AUTH_${key}_ID (and AUTH_${key}_SECRET) or pass \`clientId\` to the provider`;
    if (isProduction(env)) {
      throw new InvalidConfiguration(
        `providers[${index}] (${provider.id}): no client id, so signing in with ${provider.name} cannot work: ${fix}. See ${troubleshootingUrl("MissingClientId")}`,
      );
    }
    unavailable.set(provider.id, `Not configured: ${fix}.`);
    warnOnce(logger, configLogger, {
      code: `MissingClientId:${provider.id}`,
      anchor: "MissingClientId",
      message: `${provider.name} (${provider.id}) has no client id: its button is disabled until you ${fix}. Production refuses this configuration.`,
    });
  });
  return unavailable;
}

/**
 * The checks that do not depend on the environment: the config's shape, its providers, its adapter.
 * An integration can run them when the application builds its auth object, before any request (and
 * before run-time secrets exist); `getRuntime` runs them again with the environment.
 */
export function checkConfig(config: AuthConfig): void {
  validateConfigShape(config);
  const providers = resolveProviders(config, {});
  checkProviders(providers, config);
  const strategy = config.session?.strategy ?? (config.adapter ? "database" : "jwt");
  checkAdapter(config.adapter, strategy, providers);
  checkTwoFactorAdapter(config);
}

/** Second factors are kept through the adapter: without its two-factor methods the option cannot work. */
function checkTwoFactorAdapter(config: AuthConfig): void {
  if (config.twoFactor === undefined) return;
  if (!config.adapter) throw new MissingAdapter("twoFactor: second factors are kept through an `adapter`; none is set.");
  const adapter = config.adapter as Record<string, unknown>;
  const missing = TWO_FACTOR_METHODS.filter((method) => typeof adapter[method] !== "function");
  if (missing.length) throw new MissingAdapterMethods(`adapter: twoFactor needs the adapter methods ${missing.join(", ")}.`);
  const remembering = REMEMBER_METHODS.filter((method) => config.twoFactor?.rememberBrowser && typeof adapter[method] !== "function");
  if (remembering.length) throw new MissingAdapterMethods(`adapter: twoFactor.rememberBrowser needs the adapter method ${remembering.join(", ")} (to forget remembered browsers when factors change).`);
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

/**
 * Proving the address of a user nobody verified claims that user, detaching what was attached to it
 * (no pre-hijacked accounts), through the adapter extension `claimUnverifiedUser`. Without it such a
 * proof is refused at sign-in, never answered by deleting the user: said once here, before anyone meets it.
 */
function warnUnclaimable(config: AuthConfig, providers: ProviderConfig[], logger: LoggerInstance): void {
  const adapter = config.adapter as ExtendedAdapter | undefined;
  if (!adapter || typeof adapter.claimUnverifiedUser === "function") return;
  const proving = providers.filter(provesAddresses);
  if (!proving.length) return;
  warnOnce(logger, config.logger, {
    code: "MissingClaimUnverifiedUser",
    message: `adapter: ${proving.map((p) => p.id).join(", ")} can prove the address of a user nobody verified (as Auth.js stores every user it created through OAuth); the adapter has no claimUnverifiedUser, so such a sign-in is refused (AccountNotLinked / OAuthAccountNotLinked) rather than risk handing over a pre-hijacked account. appauth's adapters have it.`,
  });
}

/** Whether signing in with the provider can prove an address some stored user has (see signin-completion.machine.ts). */
function provesAddresses(provider: ProviderConfig): boolean {
  const linksByEmail = (provider as { allowDangerousEmailAccountLinking?: boolean }).allowDangerousEmailAccountLinking === true;
  return provider.type === "email" || ((provider.type === "oauth" || provider.type === "oidc") && linksByEmail);
}

/** Whether a WebAuthn provider carries @simplewebauthn/server's functions (the core does not import them). */
function bringsCeremony(provider: ProviderConfig): boolean {
  const ceremony = (provider as { simpleWebAuthn?: Record<string, unknown> }).simpleWebAuthn;
  return ["generateRegistrationOptions", "generateAuthenticationOptions", "verifyRegistrationResponse", "verifyAuthenticationResponse"].every(
    (name) => typeof ceremony?.[name] === "function",
  );
}

/** An email provider that cannot send is found when the config is resolved, not at the first sign-in. */
/** Password attempts are counted per account identifier: a limited provider must say which field that is. */
function checkIdentifierField(provider: CredentialsConfig, config: AuthConfig, where: string): void {
  if (config.rateLimit === false || config.rateLimit?.credentials === false || identifierField(provider) !== undefined) return;
  throw new InvalidConfiguration(
    `${where}: password attempts are counted per account identifier, and this provider declares no field that names the account. Declare its fields (credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } }) or name the field with \`identifier: "username"\`.`,
  );
}

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
  const unavailable = unconfiguredProviders(providers, env, logger, config.logger);

  if (config.skipCSRFCheck !== undefined && config.skipCSRFCheck !== skipCSRFCheck) {
    throw new InvalidConfiguration("skipCSRFCheck: expected the `skipCSRFCheck` symbol exported by appauth.");
  }
  if (config.experimental?.enableWebAuthn) {
    warnOnce(logger, config.logger, {
      code: "ExperimentalFeature",
      message: "experimental.enableWebAuthn is on: it may change or be removed without notice.",
      anchor: "ExperimentalFeatureNotEnabled",
    });
  }

  const strategy = config.session?.strategy ?? (config.adapter ? "database" : "jwt");
  checkAdapter(config.adapter, strategy, providers);
  checkTwoFactorAdapter(config);
  warnUnclaimable(config, providers, logger);
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
  const trustHost = config.trustHost ?? false;
  if (!envUrl && !trustHost) {
    // Every request would be refused as UntrustedHost: say so now, once, with the fix.
    reportOnce(config.logger ?? processOnce, logger.error, {
      code: "UntrustedHost",
      message:
        "Every request will be refused: appauth does not know which host it serves. Behind a platform or proxy that sets the Host header, set AUTH_TRUST_HOST=true (or `trustHost: true`); otherwise set AUTH_URL to the site's URL (e.g. https://example.com).",
    });
  }

  const maxAge = config.session?.maxAge ?? DEFAULT_MAX_AGE;
  const jwtMaxAge = config.jwt?.maxAge ?? maxAge;
  const customEncode = config.jwt?.encode;
  const customDecode = config.jwt?.decode;

  const cookieSets = new Map<boolean, ResolvedCookies>();
  const cookies = (secure: boolean): ResolvedCookies => {
    let set = cookieSets.get(secure);
    if (!set) {
      set = defaultCookies(secure, config.cookies, config.basePath ?? "/auth");
      cookieSets.set(secure, set);
    }
    return set;
  };

  const userCallbacks = config.callbacks ?? {};
  return {
    config,
    // Whatever the adapter throws reaches the flows as a typed store fault (StoreUnavailable).
    adapter: config.adapter ? reportingStoreFaults(config.adapter) : undefined,
    env,
    basePath: config.basePath ?? "/auth",
    secrets,
    trustHost,
    envUrl,
    useSecureCookies: config.useSecureCookies,
    providers,
    providerById: new Map(providers.map((p) => [p.id, p])),
    unavailable,
    session: {
      strategy,
      maxAge,
      updateAge: config.session?.updateAge ?? 86400,
      generateSessionToken: config.session?.generateSessionToken ?? randomSessionToken,
      acceptAuthJsCookies: config.session?.acceptAuthJsCookies ?? true,
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
      // The public parameter types are Auth.js's (looser than what each call passes): see RuntimeCallbacks.
      jwt: (userCallbacks.jwt ?? (({ token }) => token)) as RuntimeCallbacks["jwt"],
      session: (userCallbacks.session ?? defaultSessionCallback) as RuntimeCallbacks["session"],
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
      brandName: config.theme?.brandName,
    },
    logger,
    skipCSRFCheck: config.skipCSRFCheck === skipCSRFCheck,
    federation,
    rateLimit: createLimiter(config, logger, { secrets, basePath: config.basePath ?? "/auth" }),
    inspect: inspectionFor(config.inspect, logger),
    cookies,
    services: { bound: new Map() },
    ...(config.twoFactor ? { twoFactor: config.twoFactor } : {}),
  };
}

/** By default only the name, email and picture of the token reach the client. */
function defaultSessionCallback({ session }: { session: Session }): Session {
  return session;
}
