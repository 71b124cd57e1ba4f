import type { Ok } from "../../../src/contract/api/common.ts";
import type { AppConfig, Branding, ConfigAnswer, InitStatus } from "../../../src/contract/api/init.ts";
import { request } from "./http.ts";

// The contract's types (type-only imports, erased from the bundle).
export type { AppConfig, Branding };

/** Client of /api/init (spec 3 section 4.1). */
export const initApi = {
  async status(): Promise<boolean> {
    return (await request<InitStatus>("GET", "/api/init/status")).data.configured;
  },
  async branding(): Promise<Branding> {
    return (await request<Branding>("GET", "/api/init/branding")).data;
  },
  /** The config, the fields the operator locked through the environment, and whether this caller may change it. */
  async config(): Promise<{ config: AppConfig; locked: string[]; writable: boolean }> {
    const { data, headers } = await request<ConfigAnswer>("GET", "/api/init/config");
    const locked = (headers.get("cairn-locked-fields") ?? "").split(",").filter(Boolean);
    return { config: data.config, locked, writable: headers.get("cairn-config-writable") === "true" };
  },
  async updateConfig(patch: Partial<AppConfig>): Promise<AppConfig> {
    return (await request<ConfigAnswer>("PUT", "/api/init/config", patch)).data.config;
  },
  async setup(config: Partial<AppConfig> | undefined, setupToken: string): Promise<void> {
    const headers: Record<string, string> = setupToken ? { "x-setup-token": setupToken } : {};
    await request<Ok>("POST", "/api/init/setup", config ? { config } : {}, headers);
  },
};
