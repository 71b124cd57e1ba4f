import { color, type ColorData, serializeRGB } from "@csstools/css-color-parser";
import { type ComponentValue, type FunctionNode, isFunctionNode, isTokenNode, isWhitespaceNode, parseComponentValue } from "@csstools/css-parser-algorithms";
import {
  type CSSToken,
  isTokenCloseParen,
  isTokenComma,
  isTokenDelim,
  isTokenDimension,
  isTokenIdent,
  isTokenNumber,
  isTokenPercentage,
  tokenize,
} from "@csstools/css-tokenizer";

// The one definition of a CSS color for values we store and later write into a style or an SVG
// attribute: a CSS Color Level 4 <color> as a browser parses it for `color` (named colors,
// `transparent`, `currentcolor`, hex, rgb(), hsl(), hwb(), lab(), lch(), oklab(), oklch(), color()),
// with csstools' spec-following parser deciding the syntax. Narrower than a browser on purpose:
// every number written within the range a browser would otherwise clamp or wrap (so what is
// stored is what is shown), no calc(), var(), comments, escapes or CSS Color 5 additions
// (color-mix(), relative colors, light-dark()), no system colors (they follow the viewer's theme).
const MAX_LENGTH = 64;
// A second, explicit guard against leaving a declaration or an attribute (`;`, braces, quotes,
// `&`, `<`, control characters) or loading anything.
const FORBIDDEN = /[^\x20-\x7e]|[;{}"'`\\<>&]|\/\*|url\(|expression\(/i;

type Bounds = readonly [min: number, max: number];
type Channel = { number: Bounds; percent: Bounds } | "hue";

const ANY: Bounds = [-Infinity, Infinity];
const ZERO_TO = (max: number): Channel => ({ number: [0, max], percent: [0, 100] });
const UNBOUNDED: Channel = { number: ANY, percent: ANY };
const NON_NEGATIVE: Channel = { number: [0, Infinity], percent: [0, Infinity] };
const ALPHA = ZERO_TO(1);
const HUE: Bounds = [0, 360];
const DEGREES_PER = new Map([
  ["deg", 1],
  ["grad", 0.9],
  ["rad", 180 / Math.PI],
  ["turn", 360],
]);

/** The three channels of each color function (CSS Color 4 sections 5 to 10), alpha aside. */
const CHANNELS = new Map<string, readonly [Channel, Channel, Channel]>([
  ["rgb", [ZERO_TO(255), ZERO_TO(255), ZERO_TO(255)]],
  ["hsl", ["hue", ZERO_TO(100), ZERO_TO(100)]],
  ["hwb", ["hue", ZERO_TO(100), ZERO_TO(100)]],
  ["lab", [ZERO_TO(100), UNBOUNDED, UNBOUNDED]],
  ["lch", [ZERO_TO(100), NON_NEGATIVE, "hue"]],
  ["oklab", [ZERO_TO(1), UNBOUNDED, UNBOUNDED]],
  ["oklch", [ZERO_TO(1), NON_NEGATIVE, "hue"]],
  ["color", [UNBOUNDED, UNBOUNDED, UNBOUNDED]],
]);

// The legacy names are aliases (CSS Color 4 sections 5.1 and 7).
const ALIASES = new Map([
  ["rgba", "rgb"],
  ["hsla", "hsl"],
]);

const within = (value: number, [min, max]: Bounds) => Number.isFinite(value) && value >= min && value <= max;

function isInRange(node: ComponentValue, channel: Channel): boolean {
  if (!isTokenNode(node)) return false;
  const token = node.value;
  if (isTokenIdent(token)) return token[4].value.toLowerCase() === "none";
  if (channel === "hue") {
    if (isTokenNumber(token)) return within(token[4].value, HUE);
    if (!isTokenDimension(token)) return false;
    return within(token[4].value * (DEGREES_PER.get(token[4].unit.toLowerCase()) ?? Number.NaN), HUE);
  }
  if (isTokenNumber(token)) return within(token[4].value, channel.number);
  return isTokenPercentage(token) && within(token[4].value, channel.percent);
}

const isSeparator = (token: CSSToken) => isTokenComma(token) || (isTokenDelim(token) && token[4].value === "/");

/** The parser already checked the syntax; this checks each literal argument's range. */
function hasArgumentsInRange(node: FunctionNode): boolean {
  // An unclosed `rgb(1 2 3` parses, but would swallow whatever follows it in a style.
  if (!isTokenCloseParen(node.endToken)) return false;
  const args = node.value.filter((arg) => !isWhitespaceNode(arg) && !(isTokenNode(arg) && isSeparator(arg.value)));
  const name = node.getName().toLowerCase();
  const channels = CHANNELS.get(ALIASES.get(name) ?? name);
  // color() names its color space first.
  const values = name === "color" ? args.slice(1) : args;
  if (!channels || values.length < 3 || values.length > 4) return false;
  return values.every((value, i) => isInRange(value, channels[i] ?? ALPHA));
}

function parse(value: string): ColorData | null {
  const node = parseComponentValue(tokenize({ css: value }));
  if (!node || !(isTokenNode(node) || (isFunctionNode(node) && hasArgumentsInRange(node)))) return null;
  return color(node) || null;
}

/** A CSS color by the definition above (never ""). Keyword case is free, as in CSS. */
export function isCssColor(value: unknown): value is string {
  if (typeof value !== "string" || value.length > MAX_LENGTH || FORBIDDEN.test(value)) return false;
  // The parser cannot compute currentcolor, so it leaves that keyword to its caller.
  return value.toLowerCase() === "currentcolor" || parse(value) !== null;
}

/**
 * An accepted color as legacy `rgb()`/`rgba()` in sRGB (gamut-mapped), for renderers that know
 * only CSS Color 3; undefined for anything `isCssColor` refuses and for currentcolor.
 */
export function toLegacyRgb(value: string): string | undefined {
  const data = isCssColor(value) ? parse(value) : null;
  return data ? serializeRGB(data, true).toString() : undefined;
}
