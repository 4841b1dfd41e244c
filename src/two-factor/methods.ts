/**
 * The names of the adapter's two-factor methods, as `MissingAdapterMethods` reports them: a module of
 * its own, so the configuration check reaches no adapter code (the middleware bundle imports it). The
 * adapter interface is imported as a type only (erased when compiled), and `satisfies` keeps every
 * name one of its methods.
 */
import type { TwoFactorAdapter, TwoFactorVersionAdapter } from "../adapters/extensions.js";

export const TWO_FACTOR_METHODS = [
  "createTwoFactor",
  "getTwoFactors",
  "activateTwoFactor",
  "deleteTwoFactor",
  "useTotpStep",
  "replaceRecoveryCodes",
  "useRecoveryCode",
  "countRecoveryCodes",
] as const satisfies readonly (keyof TwoFactorAdapter)[];

/** The method `twoFactor.rememberBrowser` needs besides (the factors version that voids a remembered browser). */
export const REMEMBER_METHODS = ["getTwoFactorVersion"] as const satisfies readonly (keyof TwoFactorVersionAdapter)[];
