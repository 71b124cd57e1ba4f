import type { AppContext } from "../../context/context.ts";
import type { ClientRow } from "../clients/clients.table.ts";

export type TokenResponse = {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  scope: string;
  refresh_token?: string;
  id_token?: string;
};

export type GrantContext = Pick<AppContext, "db" | "clock" | "config" | "secrets" | "outbound" | "log">;

/** One grant type of the token endpoint (CONVENTIONS principle 2). */
export type GrantHandler = (ctx: GrantContext, client: ClientRow, form: URLSearchParams) => Promise<TokenResponse>;

/** RFC 6749 section 5.2 wording for a missing parameter. */
export const missingParam = (name: string) => `missing required parameter "${name}"`;
