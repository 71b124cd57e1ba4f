import { isCssColor } from "../../shared/css-color.ts";

/**
 * docs/workspace.md "Colors are CSS colors": the trimmed value when `isCssColor` accepts it (named colors
 * lower-cased), else undefined so the caller falls back instead of placing arbitrary text in an
 * attribute. currentcolor is refused: it takes the color of the embedding element, and an SVG
 * shown as an image has none.
 */
export function readCssColor(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  if (!isCssColor(trimmed) || trimmed.toLowerCase() === "currentcolor") return undefined;
  return /^[a-z]+$/i.test(trimmed) ? trimmed.toLowerCase() : trimmed;
}
