import type { AppContext } from "../../context/context.ts";
import { authenticateClient } from "../clients/authenticate-client.ts";
import { invalidRequest } from "../protocol/oauth.errors.ts";
import { revokeToken } from "../tokens/tokens.service.ts";

/** RFC 7009: revokes only the caller's tokens; an unknown or foreign token still answers 200. */
export async function revoke(
  ctx: Pick<AppContext, "db" | "clock" | "config" | "outbound" | "log" | "oauth">,
  authorization: string | null,
  form: URLSearchParams,
): Promise<void> {
  const client = await authenticateClient(ctx, authorization, form);
  const token = form.get("token");
  if (!token) throw invalidRequest('missing required parameter "token"');
  await revokeToken(ctx, token, client.clientId);
}
