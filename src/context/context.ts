import type { Config } from "../config/config.ts";
import type { Cluster } from "./cluster.ts";
import type { Db } from "../db/client.ts";
import type { ConfigAccess } from "./config-access.ts";
import type { Purges } from "./purges.ts";
import type { AccountEvents } from "../shared/account-events.ts";
import type { Clock } from "../shared/clock.ts";
import type { EventBus } from "./event-bus.ts";
import type { SecretBox } from "../shared/crypto.ts";
import type { Logger } from "../shared/log.ts";
import type { Metrics } from "../metrics/metrics.ts";
import type { OutboundPolicy } from "../shared/safe-fetch.ts";
import type { BodyDeadline } from "../shared/body-deadline.ts";

/**
 * The dependencies every service takes from, built once by bootContext (or a test). The kernel
 * members are declared here; each product adds the members it owns in its own `*.context.ts`
 * (declaration merging) and fills them in at boot, so this file imports no product.
 */
export interface AppContext {
  config: Config;
  db: Db;
  clock: Clock;
  log: Logger;
  secrets: SecretBox;
  version: string;
  configAccess: ConfigAccess;
  /** The deadline request bodies are read within, and the reads waiting on it (tests give a short one). */
  bodyDeadline: BodyDeadline;
  /** How outbound requests are guarded (tests alone relax it). */
  outbound: OutboundPolicy;
  /** Sign-outs and revocations of accounts, for the parts that must follow them. */
  accountEvents: AccountEvents;
  /** How each module clears its expired one-use rows (the purge job runs them). */
  purges: Purges;
  /** The processes of this instance (CAIRN_WORKERS): what must be one across them goes through it. */
  cluster: Cluster;
  /** The in-process event bus (realtime): what is published reaches subscribers after the commit. */
  bus: EventBus;
  /** Counters for /metrics (requests, tokens, sign-ins, commits), added up across workers when scraped. */
  metrics: Metrics;
  /** DNS lookups the instance makes (custom domains' TXT proofs); tests give their own resolver. */
  dns: { resolveTxt(name: string): Promise<string[][]> };
  /** The site's name and logo (spec 3 section 2.2), as the settings product says: for TOTP and passkey labels. */
  siteBranding(): Promise<Branding>;
}

export type Branding = { site_name: string; site_logo_url: string };
