/**
 * The benchmark harness (`npm run bench`): runs each scenario against Tocsin (or a server
 * given with --target URL), optionally ntfy, and the bare-uWS ceiling, in the same run,
 * and prints a table plus one JSON line per figure (also appended to bench/results/<time>.jsonl).
 *
 *   npm run bench                      full run (a few minutes on 2 cores)
 *   npm run bench -- --quick           tiny sizes: proves the harness works (CI)
 *   npm run bench -- --vs-ntfy PATH --rounds 3 --table
 *                                      ntfy's binary at PATH beside Tocsin and the ceiling,
 *                                      three interleaved rounds (medians), table into bench/README.md
 *   npm run bench -- --target URL      measure a running ntfy-compatible server (--target-pid PID)
 *   npm run bench -- --in-memory       Tocsin with its cache in memory (default: a file on disk)
 *   npm run bench -- --subscribers 1000,10000 --formats ws,sse   sizes (see bench/flags.ts)
 *   npm run bench -- --only fanout,idle    some scenarios
 *   npm run bench -- --only flood          one address vs 200,000 (needs wrk)
 *   npm run bench -- --only email          X-Email's cost to publishing; mail in to subscriber
 *   npm run bench -- --only cluster --no-ceiling --cluster-nodes 1,2,3 --cluster-delays 0,1,5
 *                                      nodes on FerretDB, directly and through a delaying proxy
 *   npm run bench -- --profile DIR     write a V8 CPU profile of Tocsin per scenario
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseBenchFlags } from './flags.js';
import type { Load, Scenario } from './figures.js';
import { loadCore } from './proc.js';
import { byConfiguration, medians, table, withRatios, withTable, writeJsonLines, type Row } from './report.js';
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
import { clusterConfiguration } from './scenarios/cluster-run.js';
import { startNtfy } from './ntfy.js';
import { external, startCeiling, startTocsin, useInMemoryCache, type Target } from './targets.js';
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

/** What ntfy can be measured on too; the other scenarios exercise Tocsin's own features. */
const comparable = ['publish', 'fanout', 'idle', 'replay', 'mixed'];

const flags = parseBenchFlags(process.argv.slice(2));
const { sizes } = flags;
if (flags.inMemory) useInMemoryCache();
const names = flags.only ?? (flags.vsNtfy ? comparable : Object.keys(scenarios));
const out = flags.out ?? new URL(`./results/${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl`, new URL('../../bench/', import.meta.url)).pathname;
const load: Load = {
  subscribers: [new Worker('./load/subscribers.js', loadCore), new Worker('./load/subscribers.js', loadCore)],
  publisher: new Worker('./load/publisher.js', loadCore),
  paced: new Worker('./load/paced.js', loadCore),
  autocannon: new Worker('./load/autocannon.js', loadCore),
};

const starters: (() => Promise<Target>)[] = [
  flags.target ? async () => external(flags.target as string, flags.targetPid) : () => startTocsin({ ...(flags.profile !== undefined && { profileDir: flags.profile }) }),
  ...(flags.vsNtfy ? [() => startNtfy(flags.vsNtfy as string)] : []),
  ...(flags.ceiling ? [() => startCeiling()] : []),
];

const rows: Row[] = [];
try {
  for (const name of names) {
    const parts = scenarios[name];
    if (!parts) throw new Error(`unknown scenario ${name}; known: ${Object.keys(scenarios).join(', ')}`);
    const scenarioRows: Row[] = [];
    // Rounds interleave the servers, and each round starts with the next one, so the
    // machine's drift falls on all of them alike.
    for (let round = 0; round < flags.rounds; round++) {
      const order = [...starters.slice(round % starters.length), ...starters.slice(0, round % starters.length)];
      for (const start of order) {
        for (const part of parts) {
          const target = await start();
          if (target.name === 'ntfy' && !comparable.includes(name)) {
            await target.stop();
            continue;
          }
          console.error(`# ${name} on ${target.name} (${target.url})${flags.rounds > 1 ? `, round ${round + 1} of ${flags.rounds}` : ''}`);
          try {
            for (const f of await part(target, sizes, load)) scenarioRows.push({ ...f, server: target.name });
          } finally {
            await target.stop();
          }
        }
      }
    }
    // Written as each scenario ends, so a long run that fails late keeps what it measured.
    const measured = withRatios(medians(scenarioRows));
    writeJsonLines(measured, out);
    rows.push(...measured);
  }
} finally {
  for (const w of [...load.subscribers, load.publisher, load.paced, load.autocannon]) w.stop();
}
console.log(table(rows));
const cluster = rows.filter((r) => r.scenario === 'cluster');
if (cluster.length > 0) console.log(`\n${byConfiguration(cluster, clusterConfiguration)}`);
console.error(`# results appended to ${out}`);
if (flags.table) writeReadmeTable(table(rows));

/** Replaces the generated part of bench/README.md (between its markers) with this run's table. */
function writeReadmeTable(text: string): void {
  const file = new URL('../../bench/README.md', import.meta.url).pathname;
  const cache = flags.target ? `the server at ${flags.target}` : `Tocsin with its cache ${flags.inMemory ? 'in memory' : 'in a file on disk'}`;
  const how = `Taken ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC with \`npm run bench -- ${process.argv.slice(2).join(' ')}\`: ${cache}${flags.vsNtfy ? ', ntfy tuned as in bench/ntfy.ts' : ''}; ${flags.rounds} round${flags.rounds > 1 ? 's, medians' : ''}.`;
  writeFileSync(file, withTable(readFileSync(file, 'utf8'), `${how}\n\n${text}`));
  console.error(`# table written to ${file}`);
}
