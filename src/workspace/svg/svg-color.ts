import { fromString } from "css-color-converter";

/**
 * The value when it is a CSS color that css-color-converter understands (hex with 3, 4, 6
 * or 8 digits, rgb()/rgba()/hsl()/hsla() with plain numbers, or a named color), else
 * undefined so the caller falls back instead of placing arbitrary text in an attribute.
 */
export function readCssColor(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  const candidate = /^[a-z]+$/i.test(trimmed) ? trimmed.toLowerCase() : trimmed;
  // The named-color lookup is a plain object, so inherited keys such as "constructor" would pass.
  if (candidate in Object.prototype) return undefined;
  return fromString(candidate) ? candidate : undefined;
}
