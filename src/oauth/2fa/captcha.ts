import type { AppContext } from "../../context/context.ts";
import { changedRows } from "../../db/changes.ts";
import { badInput } from "../../identity/users/identity.errors.ts";
import { type CaptchaProvider, captchaSecret, type SiteConfig } from "../../identity/site-config/site-config.ts";
import { randomToken, sha256Hex } from "../../shared/crypto.ts";
import { OutboundRefused, safeFetch } from "../../shared/safe-fetch.ts";
import { SPA_CSP } from "../../shared/security-headers.ts";
import { checkPow, issuePow, type PowVerdict } from "../protocol/proof-of-work.ts";
import { powStamps } from "./2fa.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "secrets" | "outbound" | "log">;

/** A puzzle stays solvable this long: a slow phone at the highest difficulty gets there. */
const POW_TTL_MS = 10 * 60_000;

type ThirdParty = Exclude<CaptchaProvider, "none" | "pow">;

/** Each provider's public check endpoint (all take `secret`, `response`, `remoteip` and answer `{success}`) and what its widget loads. */
const PROVIDERS: Record<ThirdParty, { verify: string; csp: { script: string[]; frame: string[]; connect: string[]; style: string[] } }> = {
  hcaptcha: {
    verify: "https://api.hcaptcha.com/siteverify",
    csp: {
      script: ["https://hcaptcha.com", "https://*.hcaptcha.com"],
      frame: ["https://hcaptcha.com", "https://*.hcaptcha.com"],
      connect: ["https://hcaptcha.com", "https://*.hcaptcha.com"],
      style: ["https://hcaptcha.com", "https://*.hcaptcha.com"],
    },
  },
  turnstile: {
    verify: "https://challenges.cloudflare.com/turnstile/v0/siteverify",
    csp: { script: ["https://challenges.cloudflare.com"], frame: ["https://challenges.cloudflare.com"], connect: [], style: [] },
  },
  recaptcha: {
    verify: "https://www.google.com/recaptcha/api/siteverify",
    csp: { script: ["https://www.google.com", "https://www.gstatic.com"], frame: ["https://www.google.com"], connect: [], style: [] },
  },
};

const isThirdParty = (p: CaptchaProvider): p is ThirdParty => p in PROVIDERS;

/** Spec 1 "captcha gate": the site or the challenge switches it on; provider `none` disables the effect. */
export const captchaRequired = (config: SiteConfig, challengeWants: boolean) =>
  config.captcha_provider !== "none" && (config.require_captcha_for_2fa || challengeWants);

/** The puzzle handed to the confirmation page, bound to its challenge. */
export function powPuzzle(ctx: Ctx, config: SiteConfig, binding: string) {
  const challenge = issuePow(ctx.secrets.derive("2fa proof of work"), {
    binding,
    now: ctx.clock.now(),
    ttlMs: POW_TTL_MS,
    difficulty: config.pow_difficulty,
    random: randomToken(12),
  });
  return { challenge, difficulty: config.pow_difficulty };
}

export type CaptchaAnswer = { captcha_token?: string; pow_challenge?: string; pow_nonce?: string };

const POW_REFUSALS: Record<Exclude<PowVerdict, "ok">, string> = {
  malformed: "The proof of work is missing or malformed.",
  forged: "The proof of work was not issued here.",
  other_challenge: "The proof of work belongs to another confirmation.",
  expired: "The proof of work expired. Reload the page to get a new one.",
  unsolved: "The proof of work is not solved.",
};

/**
 * Passes the captcha gate or throws 400 (the challenge stays open: a failed captcha is no factor
 * attempt). A proof of work counts once: its stamp is claimed by a primary-key insert.
 */
export async function passCaptcha(ctx: Ctx, config: SiteConfig, binding: string, answer: CaptchaAnswer, remoteIp: string): Promise<void> {
  const provider = config.captcha_provider;
  if (provider === "pow") {
    const challenge = answer.pow_challenge ?? "";
    const verdict = checkPow(ctx.secrets.derive("2fa proof of work"), challenge, answer.pow_nonce ?? "", binding, ctx.clock.now());
    if (verdict !== "ok") throw badInput(POW_REFUSALS[verdict]);
    const claimed = await ctx.db
      .insert(powStamps)
      .values({ stampHash: sha256Hex(challenge), expiresAt: ctx.clock.now() + POW_TTL_MS })
      .onConflictDoNothing()
      .run();
    if (changedRows(claimed) !== 1) throw badInput("This proof of work was already used. Reload the page to get a new one.");
    return;
  }
  if (!isThirdParty(provider)) return;
  if (!answer.captcha_token) throw badInput("Complete the captcha first.");
  const secret = await captchaSecret(ctx);
  if (!secret) throw badInput("The captcha of this site is not set up (no secret key). Ask an administrator.");
  const url = config.captcha_verify_url || PROVIDERS[provider].verify;
  const body = new URLSearchParams({ secret, response: answer.captcha_token, remoteip: remoteIp });
  let success = false;
  try {
    const res = await safeFetch(url, { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } }, ctx.outbound);
    success = res.status === 200 && (JSON.parse(res.body) as { success?: unknown }).success === true;
  } catch (e) {
    ctx.log.warn("captcha check failed", { provider, detail: e instanceof OutboundRefused ? e.detail : String(e) });
    throw badInput("The captcha could not be checked just now. Try again.");
  }
  if (!success) throw badInput("The captcha was not accepted. Try it again.");
}

/**
 * The confirmation page's Content-Security-Policy: the SPA's, plus the origins the configured
 * third-party widget loads from (scripts, its frame, its calls); null when no widget is used.
 */
export function confirmationPageCsp(provider: CaptchaProvider): string | null {
  if (!isThirdParty(provider)) return null;
  const { script, frame, connect, style } = PROVIDERS[provider].csp;
  const widen = (directive: string, extra: string[]) => (extra.length ? `${directive} ${extra.join(" ")}` : directive);
  return [
    ...SPA_CSP.split("; ").map((d) => {
      const name = d.split(" ")[0];
      if (name === "script-src") return widen(d, script);
      if (name === "connect-src") return widen(d, connect);
      if (name === "style-src") return widen(d, style);
      return d;
    }),
    `frame-src ${frame.join(" ")}`,
  ].join("; ");
}
