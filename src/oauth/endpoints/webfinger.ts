import { eq } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { users } from "../../identity/users/users.table.ts";
import { verifiedOwner } from "../../identity/domains/domains.service.ts";

const ISSUER_REL = "http://openid.net/specs/connect/1.0/issuer";

/**
 * RFC 7033 / OIDC Discovery section 2: `acct:<username>@<issuer host>` (or `@<a domain that
 * user verified>`) answers a JRD naming this issuer. A resource of another host or an unknown user is a 404; a missing one a 400.
 */
export async function webfinger(ctx: Pick<AppContext, "db" | "config" | "oauth">, params: URLSearchParams): Promise<Response> {
  const resource = params.get("resource");
  if (!resource) return Response.json({ error: "invalid_request", error_description: 'missing required parameter "resource"' }, { status: 400 });
  const match = /^acct:([^@\s]+)@([^@\s]+)$/i.exec(resource);
  const host = new URL(ctx.config.issuer).host.toLowerCase();
  const found = match
    ? await ctx.db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.username, (match[1] as string).toLowerCase()))
        .get()
    : undefined;
  // This instance's own host, or a custom domain verified by that very user.
  const asked = match?.[2]?.toLowerCase() ?? "";
  const user = found && (asked === host || (await verifiedOwner(ctx, asked)) === found.id) ? found : undefined;
  if (!user) return Response.json({ error: "not_found", error_description: "no such account here" }, { status: 404 });
  const rels = params.getAll("rel");
  const links = rels.length === 0 || rels.includes(ISSUER_REL) ? [{ rel: ISSUER_REL, href: ctx.config.issuer }] : [];
  return new Response(JSON.stringify({ subject: resource, links }), {
    headers: { "content-type": "application/jrd+json", "access-control-allow-origin": "*" },
  });
}
