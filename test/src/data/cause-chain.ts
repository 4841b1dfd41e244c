/** Reading logged errors in the store-fault tests. */

/** The messages of an error and of its causes (an AuthError keeps its cause in `cause.err`). */
export function causeChain(value: unknown): string[] {
  const messages: string[] = [];
  let current: unknown = value;
  for (let depth = 0; current instanceof Error && depth < 8; depth++) {
    messages.push(current.message);
    const cause = (current as { cause?: unknown }).cause;
    current = cause instanceof Error ? cause : (cause as { err?: unknown } | undefined)?.err;
  }
  return messages;
}
