// The CSRF token every sign-in and sign-out form carries: appauth's actions refuse a form without it.
import { createAsync } from "@solidjs/router";
import { getCsrfQuery } from "~/lib/server";

export function CsrfField() {
  const token = createAsync(() => getCsrfQuery(), { deferStream: true });
  return <input type="hidden" name="csrfToken" value={token() ?? ""} />;
}
