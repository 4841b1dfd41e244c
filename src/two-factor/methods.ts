/**
 * The names of the adapter's two-factor methods, as `MissingAdapterMethods` reports them: a module of
 * its own, so the configuration check reaches no adapter code (the middleware bundle imports it).
 */
export const TWO_FACTOR_METHODS = [
  "createTwoFactor",
  "getTwoFactors",
  "activateTwoFactor",
  "deleteTwoFactor",
  "useTotpStep",
  "replaceRecoveryCodes",
  "useRecoveryCode",
  "countRecoveryCodes",
] as const;
