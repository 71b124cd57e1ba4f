import { CSS_NAMED_COLORS } from "./css-named-colors.ts";

// Spec 3 section 2.3 accent_color ("any CSS color value or empty string to reset") is later
// written into a style, so only a closed grammar passes: a named color, a hex color, or
// rgb()/rgba()/hsl()/hsla() with in-range numbers. The deny list is a second, explicit guard
// against breaking out of the declaration (`;`, braces, quotes, control characters) or loading
// anything (`url(`).
const FORBIDDEN = /[;{}"'`\\<>]|[^\x20-\x7e]|url\(|expression\(/i;
const HEX = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const COLOR_FUNCTION = /^(rgba?|hsla?)\(([^()]*)\)$/i;
const ARGUMENT = /^([+-]?(?:\d+(?:\.\d+)?|\.\d+))(%|deg)?$/i;
const MAX_LENGTH = 64;

type Argument = { value: number; unit: "" | "%" | "deg" };

function parseArgument(token: string): Argument | null {
  const match = ARGUMENT.exec(token);
  if (!match) return null;
  return { value: Number(match[1]), unit: (match[2]?.toLowerCase() ?? "") as Argument["unit"] };
}

const within = (value: number, max: number) => value >= 0 && value <= max;
const isPercent = (arg: Argument) => arg.unit === "%" && within(arg.value, 100);
const isChannel = (arg: Argument) => isPercent(arg) || (arg.unit === "" && within(arg.value, 255));
const isAlpha = (arg: Argument) => isPercent(arg) || (arg.unit === "" && within(arg.value, 1));
const isHue = (arg: Argument) => arg.unit !== "%" && within(arg.value, 360);

/** `a, b, c[, alpha]` (legacy) or `a b c[ / alpha]` (CSS Color 4). */
function splitArguments(body: string): { main: string[]; alpha: string | undefined; legacy: boolean } | null {
  const text = body.trim();
  if (text.includes(",")) {
    const parts = text.split(",").map((part) => part.trim());
    if (parts.length !== 3 && parts.length !== 4) return null;
    return { main: parts.slice(0, 3), alpha: parts[3], legacy: true };
  }
  const [main = "", alpha, ...rest] = text.split("/");
  const parts = main.trim().split(/\s+/);
  if (rest.length > 0 || parts.length !== 3) return null;
  return { main: parts, alpha: alpha?.trim(), legacy: false };
}

function isValidColorFunction(name: string, body: string): boolean {
  const split = splitArguments(body);
  if (!split) return false;
  const [a, b, c, ...extra] = split.main.map(parseArgument);
  if (!a || !b || !c || extra.length > 0) return false;
  if (split.alpha !== undefined) {
    const alpha = parseArgument(split.alpha);
    if (!alpha || !isAlpha(alpha)) return false;
  }
  if (name.startsWith("rgb")) {
    // The legacy comma syntax needs all three channels in the same unit.
    if (split.legacy && !(a.unit === b.unit && b.unit === c.unit)) return false;
    return isChannel(a) && isChannel(b) && isChannel(c);
  }
  return isHue(a) && isPercent(b) && isPercent(c);
}

/** A CSS color safe to write into a style, or "" (reset to the default theme). */
export function isValidCssColor(value: unknown): value is string {
  if (typeof value !== "string") return false;
  if (value === "") return true;
  if (value.length > MAX_LENGTH || FORBIDDEN.test(value)) return false;
  if (CSS_NAMED_COLORS.has(value.toLowerCase()) || HEX.test(value)) return true;
  const match = COLOR_FUNCTION.exec(value);
  return match !== null && isValidColorFunction(match[1]!.toLowerCase(), match[2]!);
}
