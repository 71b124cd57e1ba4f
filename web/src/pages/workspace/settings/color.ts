// Spec 3 section 2.3: accent_color is "any CSS color value", so the browser's own parser decides
// what a swatch can show; the server still has the final word on what it stores.

/** True when the browser understands `value` as a CSS color. */
export function isCssColor(value: string): boolean {
  return value.trim() !== "" && typeof CSS !== "undefined" && CSS.supports("color", value.trim());
}

let canvas: CanvasRenderingContext2D | null | undefined;

/**
 * `#rrggbb` for a CSS color (what `<input type="color">` needs), or null when the browser cannot
 * parse it. A canvas normalises any color syntax; translucent colors lose their alpha here.
 */
export function colorToHex(value: string): string | null {
  if (!isCssColor(value)) return null;
  canvas ??= document.createElement("canvas").getContext("2d");
  if (!canvas) return null;
  canvas.fillStyle = "#000000";
  canvas.fillStyle = value.trim();
  const normalised = canvas.fillStyle;
  if (normalised.startsWith("#")) return normalised;
  const channels = /^rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(normalised);
  if (!channels) return null;
  return `#${channels
    .slice(1, 4)
    .map((c) => Number(c).toString(16).padStart(2, "0"))
    .join("")}`;
}
