import { onFirstUse } from "./on-first-use.ts";

// csstools' CSS parser (five packages) is needed only when a color is checked or converted.
const syntax = onFirstUse(() => require("./css-color-syntax.ts") as typeof import("./css-color-syntax.ts"));

/** A CSS color by the definition in css-color-syntax.ts (never ""). Keyword case is free, as in CSS. */
export const isCssColor = (value: unknown): value is string => syntax().isCssColor(value);

/** An accepted color as legacy `rgb()`/`rgba()` in sRGB, for renderers that know only CSS Color 3. */
export const toLegacyRgb = (value: string): string | undefined => syntax().toLegacyRgb(value);
