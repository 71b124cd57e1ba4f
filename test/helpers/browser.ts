import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

/** Why browser tests cannot run here, or null when Debian's Chromium is installed. */
export const browserSkipReason: string | null = existsSync(CHROMIUM) ? null : `${CHROMIUM} is not installed (apt-get install chromium)`;

/** `extraArgs`: more switches, e.g. `--host-resolver-rules=MAP *.home.test 127.0.0.1` for names no DNS knows. */
export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", ...extraArgs],
  });
}
