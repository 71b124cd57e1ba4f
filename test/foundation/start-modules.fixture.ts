/**
 * Run by start-modules.test.ts in a process of its own (the test runner's module cache is shared
 * by every test file): serves from source as `cairn serve` does, then prints which of the
 * libraries that load on first use are in the module cache, at start and after one use of each.
 */
import { renderer } from "../../src/docs/render/renderer.ts";
import { integrations } from "../../src/integrations/catalog.ts";
import { matchRedirectUri } from "../../src/oauth/protocol/redirect-uri.ts";
import { isCssColor } from "../../src/shared/css-color.ts";
import { parseStructured } from "../../src/workspace/import-export/structured.ts";
import { loadSvgLibraries } from "../../src/workspace/svg/svg-libraries.ts";

const LIBRARIES = [
  "re2js",
  "yaml",
  "@csstools/css-color-parser",
  "css-color-converter",
  "marked",
  "highlight.js",
  "sanitize-html",
  "badge-maker",
  "anafanafo",
  "@simplewebauthn/server",
  "nodemailer",
];
const loaded = () => {
  const files = Object.keys(require.cache);
  return LIBRARIES.filter((name) => files.some((file) => file.includes(`/node_modules/${name}/`)));
};

process.argv = [process.argv[0] as string, "cairn", "serve"];
await import("../../src/main.ts");
for (let i = 0; i < 200; i++) {
  const up = await fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then(
    (r) => r.ok,
    () => false,
  );
  if (up) break;
  await Bun.sleep(25);
}
const atStart = loaded();

matchRedirectUri([{ uri: "https://*.example.com/cb", match: "wildcard" }], "https://a.example.com/cb");
parseStructured("name: Chores\ntodos: []\n", "yaml", { includeComments: false });
isCssColor("oklch(70% 0.1 200)");
integrations();
await renderer();
await loadSvgLibraries();
// What the mail sender loads with its first message.
await import("../../src/mail/transport.ts");
console.log(`MODULES ${JSON.stringify({ watched: LIBRARIES, atStart, afterUse: loaded() })}`);
process.exit(0);
