import type { CredentialResolver } from "../../access/credentials.ts";
import type { AppContext } from "../../context/context.ts";
import { findActivePat, PAT_PREFIX } from "./pats.lookup.ts";

/** A personal access token, `Authorization: Bearer cairn_pat_...`. */
export function patCredential(ctx: Pick<AppContext, "db" | "clock" | "identity">): CredentialResolver {
  return {
    from: "bearer",
    accepts: (value) => value.startsWith(PAT_PREFIX),
    async resolve(token) {
      const pat = await findActivePat(ctx, token);
      return pat && { kind: "pat", ...pat };
    },
  };
}
