import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Figure } from './figures.js';

export interface Row extends Figure {
  server: string;
  /** This server's value over the ceiling's for the same figure, when both ran. */
  ratio?: number;
  /** This server's value over ntfy's for the same figure, when both ran (`--vs-ntfy`). */
  vsNtfy?: number;
  /** Each round's value, when there were several (`value` is their median). */
  rounds?: number[];
}

/** Servers that are measured for comparison, not the subject of a run. */
const references = ['ntfy', 'ceiling'];

const key = (f: Figure): string => `${f.scenario}|${f.name}|${JSON.stringify(f.params)}`;

/** One row per server and figure from the rows of every round: the median, and each round's value. */
export function medians(rows: Row[]): Row[] {
  const groups = new Map<string, Row[]>();
  for (const r of rows) groups.set(`${r.server}|${key(r)}`, [...(groups.get(`${r.server}|${key(r)}`) ?? []), r]);
  return [...groups.values()].map((group) => {
    const first = group[0] as Row;
    if (group.length === 1) return first;
    const values = group.map((r) => r.value);
    return { ...first, value: median(values), rounds: values };
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Pairs each figure with the ceiling's and ntfy's figure of the same name and parameters. */
export function withRatios(rows: Row[]): Row[] {
  const of = (server: string): Map<string, number> => new Map(rows.filter((r) => r.server === server).map((r) => [key(r), r.value]));
  const ceiling = of('ceiling');
  const ntfy = of('ntfy');
  const over = (value: number, base: number | undefined): number | undefined => (base === undefined || base === 0 ? undefined : value / base);
  return rows.map((r) => {
    if (r.server === 'ceiling') return r;
    const ratio = over(r.value, ceiling.get(key(r)));
    const vsNtfy = r.server === 'ntfy' ? undefined : over(r.value, ntfy.get(key(r)));
    return { ...r, ...(ratio !== undefined && { ratio }), ...(vsNtfy !== undefined && { vsNtfy }) };
  });
}

/** One JSON line per figure, to stdout and appended to the results file. */
export function writeJsonLines(rows: Row[], file: string): void {
  mkdirSync(dirname(file), { recursive: true });
  for (const row of rows) {
    const line = JSON.stringify({
      name: row.name,
      value: round(row.value),
      unit: row.unit,
      server: row.server,
      scenario: row.scenario,
      params: row.params,
      ...(row.ratio !== undefined && { ratio: round(row.ratio) }),
      ...(row.vsNtfy !== undefined && { vs_ntfy: round(row.vsNtfy) }),
      ...(row.rounds !== undefined && { rounds: row.rounds.map(round) }),
    });
    console.log(line);
    appendFileSync(file, `${line}\n`);
  }
}

/**
 * The table: one line per figure, servers side by side (the subject first, then ntfy,
 * then the ceiling), then the subject's ratio to ntfy (if it ran) and to the ceiling.
 */
export function table(rows: Row[]): string {
  const servers = [...new Set(rows.map((r) => r.server))].sort((a, b) => references.indexOf(a) - references.indexOf(b) || a.localeCompare(b));
  const withNtfy = servers.includes('ntfy');
  const byKey = new Map<string, Row[]>();
  for (const r of rows) byKey.set(key(r), [...(byKey.get(key(r)) ?? []), r]);
  const header = ['figure', 'parameters', ...servers, 'unit', ...(withNtfy ? ['÷ ntfy'] : []), '÷ ceiling'];
  const lines = [...byKey.values()].map((group) => {
    const first = group[0] as Row;
    const cells = servers.map((s) => {
      const v = group.find((r) => r.server === s)?.value;
      return v === undefined ? '' : format(v);
    });
    const subject = group.find((r) => !references.includes(r.server));
    const params = Object.entries(first.params).map(([k, v]) => `${k}=${v}`).join(' ');
    const vsNtfy = subject?.vsNtfy === undefined ? '' : `${subject.vsNtfy.toPrecision(2)}×`;
    const ratio = subject?.ratio === undefined ? '' : `${(subject.ratio * 100).toFixed(0)}%`;
    return [first.name, params, ...cells, first.unit, ...(withNtfy ? [vsNtfy] : []), ratio];
  });
  return [header, header.map(() => '---'), ...lines].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

/**
 * Figures of many configurations, one line per configuration (the values of `keys` in the
 * params, in the order first seen) and one column per figure name: the cluster scenario's
 * table, where the generic one gives a line per figure.
 */
export function byConfiguration(rows: Figure[], keys: string[]): string {
  const configuration = (f: Figure): string => JSON.stringify(keys.map((k) => f.params[k] ?? ''));
  const columns = [...new Map(rows.map((r) => [r.name, `${r.name} (${r.unit})`])).entries()];
  const lines = new Map<string, Map<string, number>>();
  for (const r of rows) {
    const line = lines.get(configuration(r)) ?? new Map<string, number>();
    lines.set(configuration(r), line.set(r.name, r.value));
  }
  const header = [...keys, ...columns.map(([, title]) => title)];
  const body = [...lines.entries()].map(([config, values]) => [...(JSON.parse(config) as string[]), ...columns.map(([name]) => {
    const v = values.get(name);
    return v === undefined ? '' : format(v);
  })]);
  return [header, header.map(() => '---'), ...body].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

const tableMarkers = ['<!-- table: begin -->', '<!-- table: end -->'] as const;

/** `readme` with what lies between its table markers replaced by `text`; throws without them. */
export function withTable(readme: string, text: string): string {
  const [begin, end] = tableMarkers;
  const [at, until] = [readme.indexOf(begin), readme.indexOf(end)];
  if (at < 0 || until < at) throw new Error(`no ${begin} … ${end} markers to put the table between`);
  return `${readme.slice(0, at + begin.length)}\n${text}\n${readme.slice(until)}`;
}

function round(v: number): number {
  return Number.isFinite(v) ? Number(v.toPrecision(4)) : v;
}

function format(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  return Math.abs(v) >= 100 ? Math.round(v).toLocaleString('en-US') : v.toPrecision(3);
}

