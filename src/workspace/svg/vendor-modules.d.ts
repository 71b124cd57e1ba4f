// Neither package ships type declarations; these cover the calls made here.

declare module "anafanafo" {
  /** Width in pixels of `text` in one of the bundled fonts, e.g. "11px Verdana" or "bold 10px Verdana". */
  export default function measure(text: string, options: { font: string; guess?: boolean }): number;
}

declare module "css-color-converter" {
  /** badge-maker's own color parser (named, hex, CSS Color 3 rgb()/hsl()); null for anything else. */
  export function fromString(color: string): object | null;
}
