// A team's accent color as each color scheme can show it (issue 42): text in the accent, and text on
// an accent background, keep WCAG's 4.5:1 against what they sit on. Pure, so it is tested without a browser.

type Rgb = readonly [r: number, g: number, b: number];
type Scheme = "light" | "dark";
type AccentVariant = {
  /** `#rrggbb` for `--accent`. */
  accent: string;
  /** `#rrggbb` for `--accent-text`, the text on an accent background. */
  accentText: string;
  /** True when the accent was lightened or darkened to reach the contrast. */
  adjusted: boolean;
};

/** WCAG 2 AA for normal text. */
export const MIN_CONTRAST = 4.5;

/** The page backgrounds of each scheme (styles/app.css --bg, --surface, --surface-2): accent text sits on any of them. */
export const BACKGROUNDS: Record<Scheme, readonly string[]> = {
  light: ["#f6f7f9", "#ffffff", "#eef0f3"],
  dark: ["#12161c", "#1b2129", "#242c36"],
};
/** The text colors an accent background may carry (app.css --accent-text of each scheme). */
const TEXT_ON_ACCENT = ["#ffffff", "#0b1320"] as const;

const HEX = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i;

function parseHex(hex: string): Rgb {
  const m = HEX.exec(hex);
  if (!m) throw new Error(`not a #rrggbb color: ${hex}`);
  return [Number.parseInt(m[1] as string, 16), Number.parseInt(m[2] as string, 16), Number.parseInt(m[3] as string, 16)];
}

const toHex = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`;

/** WCAG 2 relative luminance of a `#rrggbb` color. */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = parseHex(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as unknown as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two `#rrggbb` colors, from 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const worstContrast = (hex: string, scheme: Scheme) => Math.min(...BACKGROUNDS[scheme].map((bg) => contrastRatio(hex, bg)));

function toHsl([r, g, b]: Rgb): [h: number, s: number, l: number] {
  const [rn, gn, bn] = [r / 255, g / 255, b / 255];
  const max = Math.max(rn, gn, bn);
  const min = Math.min(rn, gn, bn);
  const l = (max + min) / 2;
  const d = max - min;
  if (d === 0) return [0, 0, l];
  const s = d / (1 - Math.abs(2 * l - 1));
  const h = max === rn ? ((gn - bn) / d + 6) % 6 : max === gn ? (bn - rn) / d + 2 : (rn - gn) / d + 4;
  return [h * 60, s, l];
}

function fromHsl(h: number, s: number, l: number): string {
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const x = c * (1 - Math.abs(((h / 60) % 2) - 1));
  const m = l - c / 2;
  const [r, g, b] = h < 60 ? [c, x, 0] : h < 120 ? [x, c, 0] : h < 180 ? [0, c, x] : h < 240 ? [0, x, c] : h < 300 ? [x, 0, c] : [c, 0, x];
  return toHex([(r + m) * 255, (g + m) * 255, (b + m) * 255]);
}

/**
 * The color of the same hue and saturation whose lightness is nearest the original while it keeps
 * 4.5:1 against every background of the scheme: lighter for the dark scheme, darker for the light one.
 * Every channel grows with HSL lightness, so contrast against these backgrounds only rises in that
 * direction and a bisection finds the boundary; white and black always pass.
 */
function readableOn(hex: string, scheme: Scheme): string {
  if (worstContrast(hex, scheme) >= MIN_CONTRAST) return hex;
  const [h, s, l] = toHsl(parseHex(hex));
  // `pass` is the lightness known to reach the contrast, `fail` the one known not to.
  let [fail, pass] = scheme === "dark" ? [l, 1] : [l, 0];
  for (let i = 0; i < 24; i++) {
    const mid = (fail + pass) / 2;
    if (worstContrast(fromHsl(h, s, mid), scheme) >= MIN_CONTRAST) pass = mid;
    else fail = mid;
  }
  return fromHsl(h, s, pass);
}

/** Of the text colors an accent background may carry, the one that reads best on it. */
function textOn(accent: string): string {
  return [...TEXT_ON_ACCENT].sort((a, b) => contrastRatio(b, accent) - contrastRatio(a, accent))[0] as string;
}

/** A `#rrggbb` accent as each scheme shows it: the color itself where it already reads, else the nearest that does. */
export function accentVariants(hex: string): Record<Scheme, AccentVariant> {
  const base = hex.toLowerCase();
  const variant = (scheme: Scheme): AccentVariant => {
    const accent = readableOn(base, scheme);
    return { accent, accentText: textOn(accent), adjusted: accent !== base };
  };
  return { light: variant("light"), dark: variant("dark") };
}
