/** An action done at most once: every call after the first answers the first call's promise. */
export function once(action: () => Promise<void>): () => Promise<void> {
  let result: Promise<void> | null = null;
  return () => {
    result ??= action();
    return result;
  };
}
