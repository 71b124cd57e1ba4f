/**
 * `npm run bench:scale`: the cost of Cairn's hot paths at a small and a large data size, side by
 * side (issue 43). Each area (./*.ts, listed below) builds its own throwaway database per size.
 * SCALE_ONLY=purges,todos runs a subset; SCALE_QUICK=1 shrinks the large sizes a hundredfold.
 */
import type { Figure, ScaleArea } from "./area.ts";
import { purges } from "./purges.ts";
import { docs } from "./docs.ts";
import { fanout } from "./fanout.ts";
import { lists } from "./lists.ts";

const AREAS: ScaleArea[] = [
  // Each area adds its line here.
  purges,
  docs,
  fanout,
  lists,
];

const only = process.env.SCALE_ONLY?.split(",").map((s) => s.trim());
const fmt = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toPrecision(2));

for (const area of AREAS.filter((a) => !only || only.includes(a.name))) {
  console.log(`\n## ${area.name}: ${area.sizes.small} / ${area.sizes.large}\n`);
  const small = await area.measure("small");
  const large = await area.measure("large");
  const byRow = new Map<string, { small?: Figure; large?: Figure }>();
  for (const f of small) byRow.set(f.row, { ...byRow.get(f.row), small: f });
  for (const f of large) byRow.set(f.row, { ...byRow.get(f.row), large: f });
  console.log("| Work | small | large | large / small |\n|---|---|---|---|");
  for (const [row, { small: s, large: l }] of byRow) {
    const ratio = s && l && s.value > 0 ? `${(l.value / s.value).toFixed(2)}×` : "";
    const cell = (f?: Figure) => (f ? `${fmt(f.value)} ${f.unit}${f.note ? ` (${f.note})` : ""}` : "");
    console.log(`| ${row} | ${cell(s)} | ${cell(l)} | ${ratio} |`);
  }
}
