import { component$, Slot } from "@builder.io/qwik";
import type { RequestHandler } from "@builder.io/qwik-city";
import { requireSession } from "appauth/qwik";

// Every page under /protected: signed-out visitors go to sign in (callbackUrl = the full URL) and come back.
export const onRequest: RequestHandler = async (event) => {
  await requireSession(event);
};

export default component$(() => <Slot />);
