/** Someone signed in, as the app-config owner check needs to know them. */
export type ConfigCaller = { userId: string; isSiteAdmin: boolean };

/**
 * Who may change the app config once the instance is initialized (spec 3 section 4.1): an owner
 * of one of the owner teams. Accounts and teams belong to the identity product, which provides
 * the implementation (src/identity/config-owner-access.ts); tests may pass their own.
 */
export interface ConfigAccess {
  caller(request: Request): ConfigCaller | null | Promise<ConfigCaller | null>;
  ownsAnyTeam(caller: ConfigCaller, teamIds: string[]): boolean | Promise<boolean>;
  /**
   * Whether a team of this instance has the id: a config naming this instance as its IdP may only
   * name real teams. Absent where teams cannot be known (a test's stand-in).
   */
  teamExists?(teamId: string): boolean | Promise<boolean>;
}
