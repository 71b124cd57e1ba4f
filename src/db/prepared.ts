import type { Db } from "./client.ts";

/**
 * A statement built once per connection and reused. drizzle re-compiles and re-prepares a query
 * on every call (about 0.3 ms); a prepared one runs in a tenth of that. `build` must be a
 * module-level function (the key). For the database layer's own generic tables (settings);
 * product modules prepare theirs in their repositories' factories.
 */
export function prepared<T>(db: Db, build: (db: Db) => T): T {
  let statement = db.$statements.get(build) as T | undefined;
  if (statement === undefined) {
    statement = build(db);
    db.$statements.set(build, statement);
  }
  return statement;
}

/**
 * Statements made with their first use, each on its own (issue 12, idle memory): a prepared
 * statement holds its query's objects and SQLite's compiled program for the life of the process,
 * and most instances never run most of them. `build` says how each is made; once made, it is a
 * plain property, as quick to reach as one made at start.
 */
export function preparedOnFirstUse<B extends Record<string, () => unknown>>(build: B): { readonly [K in keyof B]: ReturnType<B[K]> } {
  const statements = {} as { [K in keyof B]: ReturnType<B[K]> };
  for (const name of Object.keys(build) as (keyof B)[])
    Object.defineProperty(statements, name, {
      configurable: true,
      enumerable: true,
      get() {
        const statement = (build[name] as () => ReturnType<B[typeof name]>)();
        Object.defineProperty(statements, name, { value: statement, enumerable: true, writable: false, configurable: false });
        return statement;
      },
    });
  return statements;
}
