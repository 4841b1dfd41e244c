/** Machines that use every feature the renderers draw, built here so the tests do not depend on machines/. */
import { and, assign, emit, fromPromise, not, or, raise, setup } from "xstate";

export const signInMachine = setup({
  types: {} as {
    context: { attempts: number };
    events: { type: "form.submitted" } | { type: "retry" } | { type: "cancel" } | { type: "user.typed" };
  },
  actors: {
    authorize: fromPromise(async () => ({ id: "u1" })),
    loadProviders: fromPromise(async () => ["credentials"]),
  },
  guards: {
    hasProviders: () => true,
    isLocked: () => false,
    credentialsValid: () => true,
    tooManyAttempts: () => false,
    isAdmin: () => false,
  },
  actions: { recordAttempt: () => {}, storeUser: () => {}, clearForm: () => {}, trackSubmit: () => {} },
  delays: { lockout: 900_000 },
}).createMachine({
  id: "signIn",
  context: { attempts: 0 },
  initial: "loading",
  states: {
    loading: {
      invoke: {
        src: "loadProviders",
        onDone: [{ target: "form", guard: "hasProviders" }, { target: "failed" }],
        onError: "failed",
      },
    },
    form: {
      initial: "idle",
      on: { cancel: "cancelled", "user.typed": { actions: "clearForm" } },
      states: {
        idle: {
          always: [{ target: "locked", guard: and(["isLocked", not("isAdmin")]) }],
          on: { "form.submitted": { target: "submitting", actions: ["recordAttempt", "trackSubmit"] } },
        },
        submitting: {
          invoke: {
            id: "auth",
            src: "authorize",
            onDone: [
              { target: "#signIn.signedIn", guard: "credentialsValid", actions: ["storeUser", emit({ type: "signedIn" })] },
              { target: "idle", guard: or(["tooManyAttempts", "isLocked"]), actions: assign({ attempts: 0 }) },
              { target: "idle" },
            ],
            onError: { target: "idle", actions: raise({ type: "retry" }) },
          },
        },
        locked: { after: { lockout: "idle", 5000: { target: "idle", guard: "isAdmin" } } },
      },
    },
    background: {
      type: "parallel",
      states: {
        sync: { initial: "waiting", states: { waiting: { on: { retry: "synced" } }, synced: { type: "final" } } },
        watch: {},
      },
      onDone: "signedIn",
    },
    failed: { on: { retry: "loading" } },
    cancelled: { type: "final" },
    signedIn: { type: "final" },
  },
});

/** State and event names that are markup in SVG and syntax in Mermaid. */
export const hostileMachine = setup({
  types: {} as { events: { type: "a<b>&c" } | { type: 'say "hi"; #1: 50%' } },
  guards: { "x<y": () => true },
}).createMachine({
  id: "hostile<&>",
  initial: "one<two>",
  states: {
    "one<two>": { on: { "a<b>&c": { target: "three&four", guard: "x<y" } } },
    "three&four": { on: { 'say "hi"; #1: 50%': "default" } },
    default: { type: "final" },
  },
});
