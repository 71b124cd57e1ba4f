import { onFirstUse } from "../../shared/on-first-use.ts";

/**
 * The Markdown renderer and what it carries (marked, highlight.js with its languages,
 * sanitize-html, yaml): several MB of heap, loaded with the first docs page a process renders
 * rather than by every process at start. Only types may be imported from these modules elsewhere.
 */
export type Renderer = typeof import("./render-safely.ts") & typeof import("./sanitize-page.ts") & typeof import("./frontmatter.ts");

// The modules are the process's, whichever app asks: one load, remembered like any library loaded on first use.
export const renderer = onFirstUse(
  (): Promise<Renderer> =>
    Promise.all([import("./render-safely.ts"), import("./sanitize-page.ts"), import("./frontmatter.ts")]).then(([render, sanitize, frontmatter]) => ({
      ...render,
      ...sanitize,
      ...frontmatter,
    })),
);
