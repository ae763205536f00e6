import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Figure } from './figures.js';

export interface Row extends Figure {
  server: string;
  /** This server's value over the ceiling's for the same figure, when both ran. */
  ratio?: number;
}

const key = (f: Figure): string => `${f.scenario}|${f.name}|${JSON.stringify(f.params)}`;

/** Pairs each figure with the ceiling's figure of the same name and parameters. */
export function withRatios(rows: Row[]): Row[] {
  const ceiling = new Map(rows.filter((r) => r.server === 'ceiling').map((r) => [key(r), r.value]));
  return rows.map((r) => {
    const base = ceiling.get(key(r));
    return r.server === 'ceiling' || base === undefined || base === 0 ? r : { ...r, ratio: r.value / base };
  });
}

/** One JSON line per figure, to stdout and appended to the results file. */
export function writeJsonLines(rows: Row[], file: string): void {
  mkdirSync(dirname(file), { recursive: true });
  for (const row of rows) {
    const line = JSON.stringify({ name: row.name, value: round(row.value), unit: row.unit, server: row.server, scenario: row.scenario, params: row.params, ...(row.ratio === undefined ? {} : { ratio: round(row.ratio) }) });
    console.log(line);
    appendFileSync(file, `${line}\n`);
  }
}

/** The table: one line per figure, servers side by side, ratio to the ceiling last. */
export function table(rows: Row[]): string {
  const servers = [...new Set(rows.map((r) => r.server))].sort((a, b) => (a === 'ceiling' ? 1 : b === 'ceiling' ? -1 : a.localeCompare(b)));
  const byKey = new Map<string, Row[]>();
  for (const r of rows) byKey.set(key(r), [...(byKey.get(key(r)) ?? []), r]);
  const header = ['figure', 'parameters', ...servers, 'unit', 'ratio'];
  const lines = [...byKey.values()].map((group) => {
    const first = group[0] as Row;
    const cells = servers.map((s) => {
      const v = group.find((r) => r.server === s)?.value;
      return v === undefined ? '' : format(v);
    });
    const ratio = group.find((r) => r.ratio !== undefined)?.ratio;
    const params = Object.entries(first.params).map(([k, v]) => `${k}=${v}`).join(' ');
    return [first.name, params, ...cells, first.unit, ratio === undefined ? '' : `${(ratio * 100).toFixed(0)}%`];
  });
  return [header, header.map(() => '---'), ...lines].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

function round(v: number): number {
  return Number.isFinite(v) ? Number(v.toPrecision(4)) : v;
}

function format(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  return Math.abs(v) >= 100 ? Math.round(v).toLocaleString('en-US') : v.toPrecision(3);
}
