import { Elysia } from "elysia";
import { clientIp } from "../../auth/client-info.ts";
import type { AppContext } from "../../context/context.ts";
import { webhookReceiver } from "./webhook.service.ts";

/** Spec 3 section 4.4. */
export const WEBHOOK_PATH = "/api/webhook";

/** The docs push webhook: the raw body, byte-exact, read once (as it streams in) before anything parses it. */
export function webhookRoutes(ctx: AppContext) {
  const receive = webhookReceiver(ctx);
  return new Elysia({ name: "docs-webhook-routes" }).post(
    WEBHOOK_PATH,
    async ({ request, server }) => {
      const answer = await receive(request, clientIp(request, server, ctx.config.trustProxy));
      return typeof answer === "string" ? new Response(answer, { headers: { "content-type": "text/plain; charset=utf-8" } }) : Response.json(answer);
    },
    { parse: "none" },
  );
}
