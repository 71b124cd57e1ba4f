// Stands in for the "next-auth" package when the catalog's auth.ts runs outside Next.js: it keeps
// the configuration NextAuth() was given, for @auth/express to run (both wrap the same @auth/core).
export const configs = [];

export default function NextAuth(config) {
  configs.push(config);
  const unused = () => {
    throw new Error("only the configuration is used outside Next.js");
  };
  return { handlers: {}, auth: unused, signIn: unused, signOut: unused };
}
