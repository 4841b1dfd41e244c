/**
 * A module imported the first time it is needed, then held. Held rather than imported again on
 * every call: a repeated `import()` of a loaded module still resolves its specifier, which costs
 * a round trip to the loader thread wherever loader hooks run (tsx, test runners, APMs).
 */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load());
}
