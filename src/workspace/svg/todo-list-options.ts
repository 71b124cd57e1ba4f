import { readCssColor } from "./svg-color.ts";
import { readClampedInt, type SvgQuery, type SvgSet } from "./svg-input.ts";
import { toSvgText } from "./svg-text.ts";

export type TodoListColors = { bg: string; text: string; check: string; border: string };

export type TodoListOptions = {
  colors: TodoListColors;
  /** null hides the heading. */
  heading: string | null;
  /** null sizes the image to its longest line. */
  width: number | null;
  fontSize: number;
  /** null shows every todo. */
  maxItems: number | null;
  showProgress: boolean;
};

const THEMES: Record<"light" | "dark", TodoListColors> = {
  light: { bg: "#ffffff", text: "#1f2328", check: "#1a7f37", border: "#afb8c1" },
  dark: { bg: "#0d1117", text: "#e6edf3", check: "#3fb950", border: "#484f58" },
};

// Spec 2 section 8.
export const WIDTH_RANGE = { min: 200, max: 1000 } as const;
const FONT_SIZE_RANGE = { min: 10, max: 24 } as const;
const MAX_ITEMS_RANGE = { min: 1, max: 100 } as const;
const DEFAULT_FONT_SIZE = 14;

/** Spec 2 section 4.4 todo-list.svg parameters; anything unusable falls back to its default. */
export function readTodoListOptions(set: SvgSet, query: SvgQuery): TodoListOptions {
  const theme = THEMES[query.theme === "dark" ? "dark" : "light"];
  const heading = toSvgText(query.title ?? set.name);
  return {
    colors: {
      bg: readCssColor(query.bgColor) ?? theme.bg,
      text: readCssColor(query.textColor) ?? theme.text,
      check: readCssColor(query.checkColor) ?? theme.check,
      border: readCssColor(query.borderColor) ?? theme.border,
    },
    heading: heading === "" ? null : heading,
    width: readClampedInt(query.width, WIDTH_RANGE.min, WIDTH_RANGE.max) ?? null,
    fontSize: readClampedInt(query.fontSize, FONT_SIZE_RANGE.min, FONT_SIZE_RANGE.max) ?? DEFAULT_FONT_SIZE,
    // "All" stops at the clamp's ceiling too: a set of thousands draws 100 rows and "+ N more".
    maxItems: readClampedInt(query.maxItems, MAX_ITEMS_RANGE.min, MAX_ITEMS_RANGE.max) ?? MAX_ITEMS_RANGE.max,
    showProgress: query.showProgress?.trim().toLowerCase() !== "false",
  };
}
