/**
 * badge-maker and anafanafo carry Verdana's glyph width tables (about 3 MB of heap once parsed):
 * loaded with the first image drawn, not at start, so an instance that never serves one never
 * holds them. Every drawing path awaits `loadSvgLibraries()` first.
 */
type Libraries = {
  makeBadge: typeof import("badge-maker").makeBadge;
  measure: typeof import("anafanafo").default;
  /** badge-maker's own color reader (css-color-converter): null for what it cannot draw. */
  cssColor3: typeof import("css-color-converter").fromString;
};

let loaded: Libraries | null = null;

export async function loadSvgLibraries(): Promise<Libraries> {
  if (loaded === null) {
    const [badge, anafanafo, converter] = await Promise.all([import("badge-maker"), import("anafanafo"), import("css-color-converter")]);
    loaded = { makeBadge: badge.makeBadge, measure: anafanafo.default, cssColor3: converter.fromString };
  }
  return loaded;
}

/** The libraries, once loaded (a drawing path that forgot to await them is a bug, not a fallback). */
export function svgLibraries(): Libraries {
  if (loaded === null) throw new Error("the SVG libraries are used before loadSvgLibraries() resolved");
  return loaded;
}
