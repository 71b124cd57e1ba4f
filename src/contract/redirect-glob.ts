// Shared by the server's redirect matcher and the web app's catch-all warning.

const escapeRegex = (text: string) => text.replace(/[\\^$.|?*+()[\]{}]/g, "\\$&");

/**
 * A redirect-URI glob as a whole-string regular expression. Spec 2.2 gives `*` as "any run of
 * characters"; it is read within the URL part it stands in, so `https://*.app.example/cb` cannot
 * be satisfied by `https://evil.example/.app.example/cb`: in the scheme and host a `*` never
 * crosses `/ ? # @ \`; after the host it may run on into the query, but never into a fragment.
 */
export function globToRegex(glob: string): string {
  const schemeEnd = glob.indexOf("://");
  const pathStart = schemeEnd >= 0 ? glob.indexOf("/", schemeEnd + 3) : -1;
  const authority = pathStart >= 0 ? glob.slice(0, pathStart) : glob;
  const rest = pathStart >= 0 ? glob.slice(pathStart) : "";
  const queryStart = rest.indexOf("?");
  const path = queryStart >= 0 ? rest.slice(0, queryStart) : rest;
  const query = queryStart >= 0 ? rest.slice(queryStart) : "";
  const part = (text: string, star: string) => text.split("*").map(escapeRegex).join(star);
  return part(authority, "[^/?#@\\\\]*") + part(path, "[^#]*") + part(query, "[^#]*");
}
