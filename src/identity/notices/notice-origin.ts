import type { Server } from "bun";
import { signingInClient } from "../../access/client-info.ts";
import type { AppContext } from "../../context/context.ts";

/** Who made a change a security notice reports: a browser (by its user agent and address), an administrator, or the host's command line. */
export type NoticeOrigin = { by: "browser"; userAgent: string; ip: string } | { by: "admin" } | { by: "host" };

export const BY_ADMIN: NoticeOrigin = { by: "admin" };
export const FROM_HOST: NoticeOrigin = { by: "host" };

/** The browser a request came from, as a notice names it. */
export const requestOrigin = (ctx: Pick<AppContext, "config">, request: Request, server: Server<unknown> | null | undefined): NoticeOrigin => ({
  by: "browser",
  ...signingInClient(request, server, ctx.config.trustProxy),
});
