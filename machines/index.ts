/**
 * The flow definitions, pure and effect-free. Embed them in a custom server by providing the named
 * actors, guards and actions (see each machine's `setup`).
 */
import type { AnyStateMachine } from "xstate";

/** Every machine the library runs, by name: the visualizations are generated from this list. */
export const allMachines: Record<string, AnyStateMachine> = {};
