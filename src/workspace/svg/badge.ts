import { toLegacyRgb } from "../../shared/css-color.ts";
import { readCssColor } from "./svg-color.ts";
import { countTopLevel, type SvgQuery, type SvgSet } from "./svg-input.ts";
import { svgLibraries } from "./svg-libraries.ts";
import { toSvgText } from "./svg-text.ts";

// badge-maker's README lists these names; they map to the shields.io palette.
const SHIELDS_COLOR_NAMES = new Set([
  "brightgreen",
  "green",
  "yellow",
  "yellowgreen",
  "orange",
  "red",
  "blue",
  "grey",
  "lightgrey",
  "gray",
  "lightgray",
  "critical",
  "important",
  "success",
  "informational",
  "inactive",
]);
const NOT_FOUND_LABEL = "share link";
const NOT_FOUND_MESSAGE = "not found";

type BadgeStyle = "flat" | "flat-square";

/** Shields palette by share of done top-level todos; grey when there is nothing to do. */
export function colorForProgress(done: number, total: number): string {
  if (total === 0) return "lightgrey";
  if (done >= total) return "brightgreen";
  if (done === 0) return "red";
  const ratio = done / total;
  if (ratio < 0.5) return "orange";
  return ratio < 0.75 ? "yellow" : "yellowgreen";
}

// badge-maker itself accepts bare hex (`color=ff69b4`) and the shields names; anything
// else must be a CSS color, because badge-maker's own check lets inherited object keys
// such as "constructor" through and falls back to green rather than to our default.
function readBadgeColor(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (SHIELDS_COLOR_NAMES.has(trimmed.toLowerCase())) return trimmed.toLowerCase();
  if (/^([\da-f]{3}){1,2}$/i.test(trimmed)) return `#${trimmed}`;
  const color = readCssColor(trimmed);
  // badge-maker reads colors with css-color-converter, which knows CSS Color 3 syntax only and
  // would draw its own default for `transparent` or `oklch(...)`: it gets their sRGB rgb() instead.
  return color === undefined || svgLibraries().cssColor3(color) ? color : toLegacyRgb(color);
}

const readStyle = (value: string | undefined): BadgeStyle => (value === "flat-square" ? "flat-square" : "flat");

function drawBadge(query: SvgQuery, label: string, message: string, color: string): string {
  const labelColor = readBadgeColor(query.labelColor);
  return svgLibraries().makeBadge({
    style: readStyle(query.style),
    label: toSvgText(label),
    message,
    color,
    // Omitted rather than undefined: badge-maker rejects fields present with no value.
    ...(labelColor === undefined ? {} : { labelColor }),
  });
}

/**
 * Spec 2 section 4.4 badge.svg: shields.io layout, label defaulting to the set name,
 * message to `done/total` of top-level todos, color by progress, labelColor #555.
 * Deterministic for a given set and query.
 */
export function renderBadge(set: SvgSet, query: SvgQuery): string {
  const { done, total } = countTopLevel(set.todos);
  const message = toSvgText(query.message ?? "") || `${done}/${total}`;
  const color = readBadgeColor(query.color) ?? colorForProgress(done, total);
  return drawBadge(query, query.label ?? set.name, message, color);
}

/** Spec 2 section 4.4: the badge served with 404 for an unknown token or a deleted set. */
export function renderNotFoundBadge(query: SvgQuery): string {
  return drawBadge(query, query.label ?? NOT_FOUND_LABEL, NOT_FOUND_MESSAGE, "red");
}
