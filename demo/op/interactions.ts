/**
 * The demo OP's interaction routes — what oidc-provider leaves to its host: `GET /interaction/:uid`
 * shows the pending prompt (sign in, then consent), and the forms post back to
 * `/interaction/:uid/login`, `/consent` or `/abort`, each finishing the interaction so oidc-provider
 * resumes the authorization request.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type Provider from "oidc-provider";
import type { Interaction } from "oidc-provider";
import { DEMO_ACCOUNTS, normaliseEmail, type DemoAccounts } from "./accounts.js";
import { consentPage, errorPage, loginPage, pageHeaders } from "./pages.js";

export const INTERACTION_PATH = "/interaction/";

export interface InteractionContext {
  provider: Provider;
  accounts: DemoAccounts;
  clientName: string;
  /** Origins the pages' forms may end up at (the demo app), for the CSP. */
  appOrigins: readonly string[];
}

export async function handleInteraction(context: InteractionContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const send = (status: number, html: string) => {
    res.writeHead(status, pageHeaders(context.appOrigins));
    res.end(html);
  };
  const [uid = "", action = "", ...rest] = new URL(req.url ?? "/", "http://op").pathname.slice(INTERACTION_PATH.length).split("/");
  const route = `${req.method} ${action}`;
  if (rest.length || !["GET ", "POST login", "POST consent", "POST abort"].includes(route)) {
    return send(404, errorPage("Page not found", "There is nothing at this address."));
  }

  let interaction: Interaction;
  try {
    interaction = await context.provider.interactionDetails(req, res);
  } catch {
    // No interaction cookie, or the interaction expired (1 hour) or belongs to a closed session.
    return send(400, errorPage("This sign-in has expired", "The sign-in request is no longer open."));
  }
  if (interaction.uid !== uid) return send(400, errorPage("This sign-in has expired", "The page belongs to another sign-in request."));

  const { provider } = context;
  const prompt = interaction.prompt.name;
  switch (route) {
    case "GET ":
      return send(200, renderPrompt(context, interaction));
    case "POST abort":
      return provider.interactionFinished(
        req,
        res,
        { error: "access_denied", error_description: "The end-user cancelled the sign-in." },
        { mergeWithLastSubmission: false },
      );
    case "POST login": {
      if (prompt !== "login") return send(409, renderPrompt(context, interaction));
      const form = new URLSearchParams(await readBody(req));
      const chosen = form.get("account");
      let account = chosen ? DEMO_ACCOUNTS.find((candidate) => candidate.sub === chosen) : undefined;
      if (!account) {
        const typed = form.get("email") ?? "";
        const email = normaliseEmail(typed);
        if (!email) {
          const page = loginPage({ uid, clientName: context.clientName, accounts: DEMO_ACCOUNTS, email: typed, emailError: "Enter an email address such as name@example.test." });
          return send(400, page);
        }
        account = context.accounts.forEmail(email, form.get("verified") === "yes");
      }
      return provider.interactionFinished(req, res, { login: { accountId: account.sub } }, { mergeWithLastSubmission: false });
    }
    case "POST consent": {
      if (prompt !== "consent") return send(409, renderPrompt(context, interaction));
      const grantId = await grantWhatWasAsked(provider, interaction);
      return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    }
  }
}

function renderPrompt(context: InteractionContext, interaction: Interaction): string {
  const { uid, prompt } = interaction;
  const accountId = interaction.session?.accountId;
  const account = accountId ? context.accounts.find(accountId) : undefined;
  if (prompt.name === "consent" && account) {
    return consentPage({
      uid,
      clientName: context.clientName,
      account,
      // Everything the app asks for, not only what is new: the page says what the app will have.
      scopes: String(interaction.params.scope ?? "").split(" ").filter(Boolean),
      claims: (prompt.details.missingOIDCClaims ?? []).filter((claim) => !/^(sub|sid|auth_time|acr|amr|iss)$/.test(claim)),
    });
  }
  return loginPage({ uid, clientName: context.clientName, accounts: DEMO_ACCOUNTS, email: prompt.details.login_hint ?? "" });
}

/**
 * Consents to every scope and claim the prompt says is missing, on top of any earlier grant. (The
 * test OP, test/helpers/oidc-provider.ts, consents with it too.)
 */
export async function grantWhatWasAsked(provider: Provider, interaction: Interaction): Promise<string> {
  const accountId = interaction.session?.accountId;
  if (!accountId) throw new Error("consent without a signed-in account");
  const grant = interaction.grantId
    ? await provider.Grant.find(interaction.grantId)
    : new provider.Grant({ accountId, clientId: interaction.params.client_id });
  if (!grant) throw new Error(`grant ${interaction.grantId} not found`);
  const { missingOIDCScope, missingOIDCClaims, missingResourceScopes } = interaction.prompt.details;
  if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(" "));
  if (missingOIDCClaims) grant.addOIDCClaims(missingOIDCClaims);
  for (const [resource, scopes] of Object.entries(missingResourceScopes ?? {})) {
    grant.addResourceScope(resource, scopes.join(" "));
  }
  return grant.save();
}

/** A request's body as text; a body over `limit` bytes (16 KiB unless given) is refused. */
export async function readBody(req: IncomingMessage, limit = 16 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new Error("request body too large");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
