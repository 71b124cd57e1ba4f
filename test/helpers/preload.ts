import { afterAll } from "bun:test";
import { buildWeb } from "../../web/build.ts";
import { killOwned } from "./processes.ts";
import { removeTempDirs } from "./temp.ts";

// The SPA is embedded when src/spa/spa.assets.ts is first imported: build it first if stale.
await buildWeb({ ifStale: true });

// The end of the run, passed or failed: no child process outlives it, and no temporary folder stays.
afterAll(() => {
  killOwned();
  removeTempDirs();
});
