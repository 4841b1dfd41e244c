/**
 * The browser half of passkeys, inlined by the built-in sign-in page into each WebAuthn provider's
 * section (no CDN, no file to serve). It asks `/webauthn-options/:provider` for the ceremony's
 * options, runs `navigator.credentials.create()`/`get()`, and posts the answer to
 * `/callback/:provider` as a real form submission, so the server's redirect navigates the page.
 *
 * Static text: everything it needs is read from the markup around it (the form's `action`, its
 * `data-webauthn-options` URL, its hidden CSRF and callback fields), so nothing a request carries is
 * ever written into a script. Plain ES2020, no build step; it must not contain a closing script tag.
 */

/**
 * What every passkey script of the pages needs, as statements for the start of its function body:
 * base64url and bytes, the options JSON as `navigator.credentials` takes it, and a credential as the
 * JSON the server reads (WebAuthn Level 3's JSON helpers where the browser has them). Expects
 * `PKC` (`window.PublicKeyCredential`) in scope.
 */
export const passkeyCodec = String.raw`  // base64url <-> bytes, for browsers without the JSON helpers of WebAuthn Level 3.
  const toBase64url = (buffer) => {
    let binary = "";
    for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  };
  const fromBase64url = (text) => {
    const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
    const binary = atob(base64 + "===".slice((base64.length + 3) % 4));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0)).buffer;
  };
  const withIds = (list) => (list || []).map((c) => Object.assign({}, c, { id: fromBase64url(c.id) }));

  const requestOptions = (json) =>
    typeof PKC.parseRequestOptionsFromJSON === "function"
      ? PKC.parseRequestOptionsFromJSON(json)
      : Object.assign({}, json, { challenge: fromBase64url(json.challenge), allowCredentials: withIds(json.allowCredentials) });

  // RegistrationResponseJSON / AuthenticationResponseJSON, as the server reads them.
  const credentialJSON = (credential) => {
    if (typeof credential.toJSON === "function") return credential.toJSON();
    const r = credential.response;
    const response = { clientDataJSON: toBase64url(r.clientDataJSON) };
    if (r.attestationObject) {
      response.attestationObject = toBase64url(r.attestationObject);
      if (typeof r.getTransports === "function") response.transports = r.getTransports();
    } else {
      response.authenticatorData = toBase64url(r.authenticatorData);
      response.signature = toBase64url(r.signature);
      if (r.userHandle) response.userHandle = toBase64url(r.userHandle);
    }
    const json = {
      id: credential.id,
      rawId: toBase64url(credential.rawId),
      type: credential.type,
      response: response,
      clientExtensionResults: credential.getClientExtensionResults ? credential.getClientExtensionResults() : {},
    };
    if (credential.authenticatorAttachment) json.authenticatorAttachment = credential.authenticatorAttachment;
    return json;
  };`;

/** The script, as it goes between `<script>` and `</script>`. */
export const webauthnScript = String.raw`(() => {
  "use strict";
  // The script sits in its provider's <section>, right after the provider's form.
  const section = document.currentScript && document.currentScript.closest("section");
  const form = section && section.querySelector("form[data-webauthn-options]");
  if (!form) return;
  const PKC = window.PublicKeyCredential;
  const emailField = form.querySelector("input[name=email]");
  const buttons = Array.from(form.querySelectorAll("button"));
  const hidden = (name) => {
    const input = form.querySelector("input[type=hidden][name=" + name + "]");
    return input ? input.value : "";
  };

${passkeyCodec}
  const creationOptions = (json) =>
    typeof PKC.parseCreationOptionsFromJSON === "function"
      ? PKC.parseCreationOptionsFromJSON(json)
      : Object.assign({}, json, {
          challenge: fromBase64url(json.challenge),
          user: Object.assign({}, json.user, { id: fromBase64url(json.user.id) }),
          excludeCredentials: withIds(json.excludeCredentials),
        });

  // What was posted (this tab only): the answer's page may have to tell the device to drop it.
  const POSTED = "appauth.passkey.posted";
  const rpIdOf = (body) => (body.action === "register" ? body.options.rp && body.options.rp.id : body.options.rpId) || location.hostname;
  const remember = (body, credential) => {
    try {
      sessionStorage.setItem(POSTED, JSON.stringify({ form: form.dataset.webauthnOptions, action: body.action, rpId: rpIdOf(body), id: credential.id }));
    } catch (error) { /* no storage: the device is not told */ }
  };
  const recall = () => {
    try {
      const value = sessionStorage.getItem(POSTED);
      sessionStorage.removeItem(POSTED);
      return value ? JSON.parse(value) : null;
    } catch (error) { return null; }
  };

  // A real form submission: the server answers with a redirect, which the browser follows.
  const submit = (body, credential) => {
    const action = body.action;
    remember(body, credential);
    const post = document.createElement("form");
    post.method = "post";
    post.action = form.getAttribute("action");
    post.hidden = true;
    const fields = { csrfToken: hidden("csrfToken"), callbackUrl: hidden("callbackUrl"), action: action, data: JSON.stringify(credentialJSON(credential)) };
    for (const name of Object.keys(fields)) {
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = fields[name];
      post.appendChild(input);
    }
    document.body.appendChild(post);
    post.submit();
  };

  // Errors go to the page's alert region (rendered hidden when the page has no error to show).
  const alertBox = document.querySelector("main [role=alert]");
  const say = (message) => {
    if (!alertBox) return;
    const paragraphs = alertBox.querySelectorAll("p");
    paragraphs.forEach((p, i) => { if (i > 0) p.remove(); });
    if (paragraphs[0]) paragraphs[0].textContent = message;
    else alertBox.textContent = message;
    alertBox.hidden = false;
  };
  const failure = (message, name) => Object.assign(new Error(message), { name: name || "PasskeyError" });
  const explain = (error, requested) => {
    switch (error && error.name) {
      case "PasskeyError": return error.message;
      case "NotAllowedError": return "The passkey request was cancelled or timed out. Please try again.";
      case "InvalidStateError": return "This device already has a passkey for this account. Use Sign in with passkey.";
      case "SecurityError": return "Passkeys cannot be used on this address.";
      case "NotSupportedError": return "This browser does not support passkeys.";
      default: return requested === "register" ? "The passkey could not be created. Please try again." : "Sign in with a passkey failed. Please try again.";
    }
  };

  const fetchOptions = async (action, email, signal) => {
    const url = new URL(form.dataset.webauthnOptions, location.href);
    if (action) url.searchParams.set("action", action);
    if (email) url.searchParams.set("email", email);
    const response = await fetch(url, { credentials: "same-origin", headers: { accept: "application/json" }, signal: signal });
    const body = await response.json().catch(() => null);
    if (response.ok && body && body.options && (body.action === "register" || body.action === "authenticate")) return body;
    if (action === "register" && !email) throw failure("Enter your email address to create a passkey.");
    // Refusals about the address say what to do (sign in first; type one plain address).
    if (body && (body.error === "AccountNotLinked" || body.error === "EmailSignInError") && typeof body.message === "string") throw failure(body.message);
    throw failure("Passkeys are not available right now. Please try again.");
  };

  // Autofill (conditional UI): one pending request offers the passkeys in the email field's
  // suggestions. Its progress shows in data-webauthn-autofill-state (starting, pending, stopped,
  // unavailable, failed), for tests and for debugging.
  let autofill = null;
  const startAutofill = () => {
    if (autofill || !form.hasAttribute("data-webauthn-autofill")) return;
    const state = (value) => form.setAttribute("data-webauthn-autofill-state", value);
    form.removeAttribute("data-webauthn-autofill-error");
    if (!PKC || typeof PKC.isConditionalMediationAvailable !== "function") return state("unavailable");
    // A page holds one conditional request at a time: the first provider that offers autofill keeps it.
    const root = document.documentElement;
    const owner = root.getAttribute("data-webauthn-autofill-owner");
    if (owner && owner !== form.dataset.webauthnOptions) return state("unavailable");
    root.setAttribute("data-webauthn-autofill-owner", form.dataset.webauthnOptions);
    const controller = new AbortController();
    let fetched = Promise.resolve();
    const run = async () => {
      state("starting");
      if (!(await PKC.isConditionalMediationAvailable().catch(() => false))) return state("unavailable");
      if (controller.signal.aborted) return;
      const pending = fetchOptions("authenticate", "", controller.signal);
      fetched = pending.catch(() => undefined);
      const body = await pending;
      if (controller.signal.aborted) return;
      const get = navigator.credentials.get({ mediation: "conditional", publicKey: requestOptions(body.options), signal: controller.signal });
      state("pending");
      const credential = await get;
      if (credential) submit(body, credential);
    };
    const done = run().catch((error) => {
      if (controller.signal.aborted || (error && error.name === "AbortError")) return state("stopped");
      // Nobody pressed anything, so a failed autofill request stays quiet (a browser may reject it
      // when it has no passkey to offer); the buttons still work. Its error name is kept for debugging.
      form.setAttribute("data-webauthn-autofill-error", String(error && error.name));
      state("failed");
    });
    autofill = {
      // Aborts the request and waits for its options fetch: the challenge cookie of a later fetch
      // must replace this one's, not race it.
      stop: async () => {
        controller.abort();
        await fetched;
        await done;
        state("stopped");
      },
    };
  };

  let busy = false;
  const ceremony = async (requested) => {
    if (busy) return;
    busy = true;
    buttons.forEach((b) => { b.disabled = true; });
    form.setAttribute("aria-busy", "true");
    try {
      if (autofill) { const current = autofill; autofill = null; await current.stop(); }
      if (!PKC || !navigator.credentials) throw failure("This browser does not support passkeys.");
      const email = emailField ? emailField.value.trim() : "";
      const body = await fetchOptions(requested, email);
      const credential = body.action === "register"
        ? await navigator.credentials.create({ publicKey: creationOptions(body.options) })
        : await navigator.credentials.get({ publicKey: requestOptions(body.options) });
      if (!credential) throw failure("No passkey was chosen.");
      submit(body, credential);
    } catch (error) {
      say(explain(error, requested));
      busy = false;
      buttons.forEach((b) => { b.disabled = false; });
      form.removeAttribute("aria-busy");
      startAutofill();
    }
  };

  // Which button sent the form: event.submitter, or the last one clicked where that is missing.
  let clicked = null;
  buttons.forEach((b) => b.addEventListener("click", () => { clicked = b; }));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const submitter = event.submitter || clicked;
    clicked = null;
    ceremony(submitter && submitter.value === "register" ? "register" : "authenticate");
  });
  // Back from the callback through the back/forward cache: the page is as it was left, mid-ceremony.
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    busy = false;
    buttons.forEach((b) => { b.disabled = false; });
    form.removeAttribute("aria-busy");
    const previous = autofill;
    autofill = null;
    Promise.resolve(previous && previous.stop()).then(startAutofill);
  });

  // The error this page reports (a type and code the server recognised).
  const reported = alertBox && alertBox.querySelector("[data-error]");
  const errorType = reported ? reported.getAttribute("data-error") : "";
  const errorCode = reported ? reported.getAttribute("data-code") : "";
  const passkeyRefused = errorType === "WebAuthnVerificationError" || errorType === "AccountNotLinked";
  // A passkey the server does not know (or refused as it was made) is removed from the device.
  const posted = recall();
  const unknownHere =
    posted && posted.form === form.dataset.webauthnOptions &&
    ((errorType === "WebAuthnVerificationError" && errorCode === "unknown_passkey") || (errorType === "AccountNotLinked" && posted.action === "register"));
  if (unknownHere) {
    const signalled = (value) => form.setAttribute("data-webauthn-signalled", value);
    if (PKC && typeof PKC.signalUnknownCredential === "function") {
      PKC.signalUnknownCredential({ rpId: posted.rpId, credentialId: posted.id }).then(() => signalled("unknown"), () => signalled("failed"));
    } else signalled("unsupported");
  }
  // After a refusal, no autofill by itself (an authenticator answering at once would loop); focusing
  // the email field brings it back.
  if (passkeyRefused && form.hasAttribute("data-webauthn-autofill")) {
    form.setAttribute("data-webauthn-autofill-state", "paused");
    if (emailField) emailField.addEventListener("focus", startAutofill, { once: true });
  } else startAutofill();
})();`;
