/** The real servers the published-adapter tests sign in through: the test OP and an SMTP server. */
import { afterAll, beforeAll } from "vitest";
import { CONFIDENTIAL_CLIENT, startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp.js";

export interface Services {
  op: TestProvider;
  smtp: TestSmtpServer;
}

/**
 * Starts the OP (the confidential client, `accounts` as its people) and the SMTP server before the
 * file's tests and stops them after; the object is filled in once they run.
 */
export function servicesFor(accounts: Record<string, Record<string, unknown>>): Services {
  const services = {} as Services;
  beforeAll(async () => {
    [services.op, services.smtp] = await Promise.all([startTestProvider({ clients: [CONFIDENTIAL_CLIENT], accounts }), startSmtpServer()]);
  });
  afterAll(async () => {
    await Promise.all([services.op?.close(), services.smtp?.close()]);
  });
  return services;
}
