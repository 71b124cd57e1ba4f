import type { Config } from "../config/config.ts";
import type { Cluster } from "../context/cluster.ts";
import type { Db } from "../db/client.ts";
import type { PostgresStore } from "../db/pg/open.ts";
import { createWindowLimits, type WindowLimits } from "./window-limit.ts";
import { pgWindowLimits } from "./window-limit.pg.ts";
import { cookieName, readCookie, SESSION_COOKIE } from "./cookies.ts";
import { createCredentials, type Credentials } from "./credentials.ts";

/** What the kernel holds for an app: the credential kinds and the policy hooks the products fill in at boot. */
export type AccessKernel = {
  credentials: Credentials;
  /** Whether an app's token needs a second-factor sign-in for admin APIs (site setting `admin_requires_mfa`). */
  adminNeedsSecondFactor: () => boolean | Promise<boolean>;
  /** In-memory window limits (anonymous starts, lookups), one across the instance's workers; in the database across instances on PostgreSQL. */
  windows: WindowLimits;
};

declare module "../context/context.ts" {
  interface AppContext {
    access: AccessKernel;
  }
}

export function createAccessKernel(config: Pick<Config, "issuer">, cluster: Cluster, db?: Db): AccessKernel {
  return {
    windows: db?.$dialect === "postgres" ? pgWindowLimits((db as PostgresStore).$pg) : createWindowLimits(cluster),
    credentials: createCredentials((request) => readCookie(request, cookieName(config, SESSION_COOKIE))),
    adminNeedsSecondFactor: () => true,
  };
}

/** The principal behind a request: whichever registered credential kind it carries, or null. */
export const resolvePrincipal = (ctx: { access: AccessKernel }, request: Request) => ctx.access.credentials.resolve(request);
