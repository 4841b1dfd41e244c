/** The settings every runtime's glue hands to `createApp`, read through that runtime's own way of getting them. */
export const SETTING_NAMES = ["SECRET", "ISSUER", "CLIENT_ID", "CLIENT_SECRET", "MAIL_API", "RUNTIME", "REDIS_URL", "REDIS_PREFIX"];

/** @param {(name: string) => string | undefined} read */
export function readSettings(read) {
  const value = (name) => {
    const found = read(`PORTABLE_${name}`);
    if (found === undefined) throw new Error(`PORTABLE_${name} is not set`);
    return found;
  };
  return {
    secret: value("SECRET"),
    issuer: value("ISSUER"),
    clientId: value("CLIENT_ID"),
    clientSecret: value("CLIENT_SECRET"),
    mailApi: value("MAIL_API"),
    runtime: value("RUNTIME"),
    redisUrl: value("REDIS_URL"),
    redisPrefix: value("REDIS_PREFIX"),
  };
}
