/**
 * The benchmark harness (`npm run bench`): runs each scenario against Tocsin (or a server
 * given with --target URL) and against the bare-uWS ceiling, in the same run, and prints
 * a table plus one JSON line per figure (also appended to bench/results/<time>.jsonl).
 *
 *   npm run bench                      full run (a few minutes on 2 cores)
 *   npm run bench -- --quick           tiny sizes: proves the harness works (CI)
 *   npm run bench -- --target URL      measure a running ntfy-compatible server
 *   npm run bench -- --only fanout,idle    some scenarios
 *   npm run bench -- --only flood          one address vs 200,000 (needs wrk)
 *   npm run bench -- --only email          X-Email's cost to publishing; mail in to subscriber
 *   npm run bench -- --profile DIR     write a V8 CPU profile of Tocsin per scenario
 */
import { parseArgs } from 'node:util';
import { fullSizes, quickSizes, type Load, type Scenario } from './figures.js';
import { table, withRatios, writeJsonLines, type Row } from './report.js';
import { fanoutScenario } from './scenarios/fanout.js';
import { idleScenario } from './scenarios/idle.js';
import { mixedScenario } from './scenarios/mixed.js';
import { publishScenario } from './scenarios/publish.js';
import { replayScenario } from './scenarios/replay.js';
import { authScenario } from './scenarios/auth.js';
import { limitsScenario } from './scenarios/limits.js';
import { floodScenario } from './scenarios/flood.js';
import { scheduledScenario } from './scenarios/scheduled.js';
import { templatesScenario } from './scenarios/templates.js';
import { emailScenario } from './scenarios/email.js';
import { clusterScenario } from './scenarios/cluster.js';
import { external, startCeiling, startTocsin, type Target } from './targets.js';
import { Worker } from './worker.js';

/** Each part of a scenario runs on a freshly started server. */
const scenarios: Record<string, Scenario[]> = {
  publish: [publishScenario],
  fanout: [fanoutScenario],
  idle: [idleScenario('ws'), idleScenario('sse')],
  replay: [replayScenario],
  mixed: [mixedScenario],
  scheduled: [scheduledScenario],
  auth: [authScenario],
  limits: [limitsScenario],
  templates: [templatesScenario],
  flood: [floodScenario],
  email: [emailScenario],
  cluster: [clusterScenario],
};

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    target: { type: 'string' },
    only: { type: 'string' },
    profile: { type: 'string' },
    out: { type: 'string' },
    'no-ceiling': { type: 'boolean', default: false },
  },
});

const sizes = values.quick ? quickSizes : fullSizes;
const names = values.only ? values.only.split(',') : Object.keys(scenarios);
const out = values.out ?? new URL(`./results/${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl`, new URL('../../bench/', import.meta.url)).pathname;
const loadCore = 1;
const load: Load = {
  subscribers: [new Worker('./load/subscribers.js', loadCore), new Worker('./load/subscribers.js', loadCore)],
  publisher: new Worker('./load/publisher.js', loadCore),
  paced: new Worker('./load/paced.js', loadCore),
  autocannon: new Worker('./load/autocannon.js', loadCore),
};

const starters: (() => Promise<Target>)[] = [
  values.target ? async () => external(values.target as string) : () => startTocsin({ profileDir: values.profile }),
  ...(values['no-ceiling'] ? [] : [() => startCeiling()]),
];

const rows: Row[] = [];
try {
  for (const name of names) {
    const parts = scenarios[name];
    if (!parts) throw new Error(`unknown scenario ${name}; known: ${Object.keys(scenarios).join(', ')}`);
    const scenarioRows: Row[] = [];
    for (const start of starters) {
      for (const part of parts) {
        const target = await start();
        console.error(`# ${name} on ${target.name} (${target.url})`);
        try {
          for (const f of await part(target, sizes, load)) scenarioRows.push({ ...f, server: target.name });
        } finally {
          await target.stop();
        }
      }
    }
    // Written as each scenario ends, so a long run that fails late keeps what it measured.
    const measured = withRatios(scenarioRows);
    writeJsonLines(measured, out);
    rows.push(...measured);
  }
} finally {
  for (const w of [...load.subscribers, load.publisher, load.paced, load.autocannon]) w.stop();
}
console.log(table(rows));
console.error(`# results appended to ${out}`);
