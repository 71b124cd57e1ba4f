declare module "../context/context.ts" {
  interface AppContext {
    /**
     * The grant types the token endpoint serves (grants/index.ts), set at boot: what client
     * metadata may name, read at run time so that clients need not import the grants.
     */
    grantTypes: readonly string[];
  }
}

export {};
