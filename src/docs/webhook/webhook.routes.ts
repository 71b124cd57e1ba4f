import { Elysia } from "elysia";
import { clientIp } from "../../access/client-info.ts";
import type { AppContext } from "../../context/context.ts";
import { webhookReceiver } from "./webhook.service.ts";

/** The route's path (spec 3 section 4.4), which app.ts holds to the larger body limit. */
export const WEBHOOK_PATH = "/api/webhook";

/** The docs push webhook: the raw body, byte-exact, read once (as it streams in) before anything parses it. */
export function webhookRoutes(ctx: AppContext) {
  const receive = webhookReceiver(ctx);
  return new Elysia({ name: "docs-webhook-routes" }).post(
    "/api/webhook",
    async ({ request, server }) => {
      const answer = await receive(request, clientIp(request, server, ctx.config.trustProxy));
      return typeof answer === "string" ? new Response(answer, { headers: { "content-type": "text/plain; charset=utf-8" } }) : Response.json(answer);
    },
    { parse: "none" },
  );
}
