import { embedFolder } from "../shared/embed.macro.ts" with { type: "macro" };
import { yaml } from "../shared/yaml.ts";
import { CatalogError, type Integration, parseIntegration } from "./integration.ts";

/** `catalog/*.yaml`, carried inside the executable by a bundle-time macro: one file per application. */
const FILES: Record<string, string> = embedFolder("src/integrations/catalog", "^[^/]+\\.yaml$");

/** Every file parsed and checked; a bad file names itself. Sorted by name, generic entries last. */
export function loadCatalog(files: Record<string, string> = FILES): Integration[] {
  const entries = Object.entries(files).map(([file, b64]) => {
    const id = file.replace(/\.yaml$/, "");
    try {
      return parseIntegration(id, yaml().parse(Buffer.from(b64, "base64").toString("utf8")));
    } catch (e) {
      throw new CatalogError(`catalog/${file}: ${(e as Error).message}`);
    }
  });
  const last = (e: Integration) => (e.category === "Generic" ? 1 : 0);
  return entries.sort((a, b) => last(a) - last(b) || a.name.localeCompare(b.name));
}

let cached: { list: Integration[]; byId: Map<string, Integration> } | null = null;

function catalog() {
  if (cached === null) {
    const list = loadCatalog();
    cached = { list, byId: new Map(list.map((e) => [e.id, e])) };
  }
  return cached;
}

export const integrations = (): Integration[] => catalog().list;
export const findIntegration = (id: string): Integration | null => catalog().byId.get(id) ?? null;
