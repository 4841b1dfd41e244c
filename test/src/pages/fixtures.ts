/** Sample data for the page tests and the screenshot script. */
import type { PageProvider, PageTheme } from "../../../src/pages/index.js";

const svg = (body: string): string =>
  `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">${body}</svg>`)}`;

export const BASE = "https://app.example.com/auth";

export const credentialsProvider: PageProvider = {
  id: "credentials",
  name: "Password",
  type: "credentials",
  signinUrl: `${BASE}/signin/credentials`,
  callbackUrl: `${BASE}/callback/credentials`,
  credentials: {
    username: { label: "Username", placeholder: "jsmith", autocomplete: "username", required: true },
    password: { label: "Password", type: "password", required: true },
  },
};

export const githubProvider: PageProvider = {
  id: "github",
  name: "GitHub",
  type: "oauth",
  signinUrl: `${BASE}/signin/github`,
  callbackUrl: `${BASE}/callback/github`,
  style: {
    brandColor: "#24292f",
    logo: svg('<circle cx="12" cy="12" r="9" fill="none" stroke="#fff" stroke-width="2.4"/><circle cx="12" cy="12" r="3.2" fill="#fff"/>'),
  },
};

export const acmeProvider: PageProvider = {
  id: "acme",
  name: "Acme ID",
  type: "oidc",
  signinUrl: `${BASE}/signin/acme`,
  callbackUrl: `${BASE}/callback/acme`,
  style: {
    brandColor: "#facc15",
    logo: svg('<path d="M12 3 21 20H3z" fill="none" stroke="#111827" stroke-width="2.4" stroke-linejoin="round"/>'),
  },
};

export const emailProvider: PageProvider = {
  id: "email",
  name: "Email",
  type: "email",
  signinUrl: `${BASE}/signin/email`,
  callbackUrl: `${BASE}/callback/email`,
};

export const passkeyProvider: PageProvider = {
  id: "passkey",
  name: "Passkey",
  type: "webauthn",
  signinUrl: `${BASE}/signin/passkey`,
  callbackUrl: `${BASE}/callback/passkey`,
  optionsUrl: `${BASE}/webauthn-options/passkey`,
  enableConditionalUI: true,
};

/** `WebAuthn()` as the page sees it: no autofill, and (as a custom page might pass it) no options URL. */
export const webauthnProvider: PageProvider = {
  id: "webauthn",
  name: "WebAuthn",
  type: "webauthn",
  signinUrl: `${BASE}/signin/webauthn`,
  callbackUrl: `${BASE}/callback/webauthn`,
};

export const allProviders: PageProvider[] = [githubProvider, acmeProvider, credentialsProvider, emailProvider];

export const lightTheme: PageTheme = { colorScheme: "light" };
export const darkTheme: PageTheme = { colorScheme: "dark" };
export const autoTheme: PageTheme = { colorScheme: "auto" };

export const logo = svg(
  '<rect x="2" y="2" width="20" height="20" rx="6" fill="#4f46e5"/><path d="M8 15.5 12 7l4 8.5" fill="none" stroke="#fff" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/>',
);

export const CSRF = "csrf-token-123";
export const CALLBACK = "https://app.example.com/dashboard";
