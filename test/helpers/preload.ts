// The SPA is embedded when src/spa/spa.assets.ts is first imported: build it first if stale.
import { buildWeb } from "../../web/build.ts";

await buildWeb({ ifStale: true });
