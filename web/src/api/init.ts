import type { AppConfig } from "../../../src/contract/app-config.ts";
import { request } from "./http.ts";

// The contract's type (a type-only import, erased from the bundle).
export type { AppConfig };

export type Branding = { site_name: string; site_logo_url: string };

/** Client of /api/init (spec 3 section 4.1). */
export const initApi = {
  async status(): Promise<boolean> {
    return (await request<{ configured: boolean }>("GET", "/api/init/status")).data.configured;
  },
  async branding(): Promise<Branding> {
    return (await request<Branding>("GET", "/api/init/branding")).data;
  },
  /** The config, the fields the operator locked through the environment, and whether this caller may change it. */
  async config(): Promise<{ config: AppConfig; locked: string[]; writable: boolean }> {
    const { data, headers } = await request<{ config: AppConfig }>("GET", "/api/init/config");
    const locked = (headers.get("cairn-locked-fields") ?? "").split(",").filter(Boolean);
    return { config: data.config, locked, writable: headers.get("cairn-config-writable") === "true" };
  },
  async updateConfig(patch: Partial<AppConfig>): Promise<AppConfig> {
    return (await request<{ config: AppConfig }>("PUT", "/api/init/config", patch)).data.config;
  },
  async setup(config: Partial<AppConfig> | undefined, setupToken: string): Promise<void> {
    const headers: Record<string, string> = setupToken ? { "x-setup-token": setupToken } : {};
    await request("POST", "/api/init/setup", config ? { config } : {}, headers);
  },
};
