/**
 * A value made with its first use rather than at start: a prepared statement, or a library for
 * code that must stay synchronous (a validator, a matcher, a parser). In the executable every
 * module's top-level code runs at start and stays in memory in every process, used or not; and a
 * library's top-level loops push the whole bundle's start-up code into the JIT (issue 12, idle
 * memory). For a library, `load` calls `require` with a literal name, so the bundler still
 * carries it and loads it lazily.
 */
export function onFirstUse<T>(load: () => T): () => T {
  let value: T | undefined;
  return () => {
    value ??= load();
    return value;
  };
}
