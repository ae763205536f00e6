import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { publish, type Json } from '../support/clients.js';
import { Scrape } from '../support/prometheus.js';
import { spawnServer, type ChildServer } from '../support/server.js';

/**
 * Issue 33, finding 2, against a real server in its own process: a templated publish whose
 * value is built from shared references is answered at once (as ntfy when Go answers at once,
 * 400/40055 when a walk would take the rest of the day) while /v1/health stays fast.
 */
// Spawned at the top level, so the kill spawnServer registers runs when the file's tests end.
const server: ChildServer = await spawnServer([]);

/** The message template, with the walk at its end. */
const hostile = (depth: number, walk: string): string => `{{$x := list 1}}{{range $i := until ${depth}}}{{$x = list $x $x}}{{end}}${walk}`;

/** Sends the publish while polling /v1/health; returns the answer, its time and the slowest health answer. */
async function sendWatchingHealth(message: string): Promise<{ status: number; json: Json; ms: number; healthMs: number }> {
  let healthMs = 0;
  let done = false;
  const watch = (async (): Promise<void> => {
    while (!done) {
      const started = performance.now();
      const res = await fetch(`${server.url}/v1/health`);
      assert.equal(res.status, 200);
      await res.arrayBuffer();
      healthMs = Math.max(healthMs, performance.now() - started);
    }
  })();
  const started = performance.now();
  const { status, json } = await publish(`${server.url}/hostile`, '{}', { Template: 'yes', Message: message });
  const ms = performance.now() - started;
  done = true;
  await watch;
  return { status, json, ms, healthMs };
}

describe('templates — shared structure against a real server', () => {
  for (const depth of [24, 40]) {
    it(`shared structure — the issue's deepEqual at depth ${depth} answers true at once, as ntfy (Go compares a list with itself at once)`, async () => {
      const r = await sendWatchingHealth(hostile(depth, '{{deepEqual $x $x}}'));
      assert.deepEqual([r.status, r.json.message], [200, 'true']);
      assert.ok(r.ms < 1000, `${r.ms} ms`);
      assert.ok(r.healthMs < 500, `health ${r.healthMs} ms`);
    });

    for (const walk of ['{{toJSON $x}}', '{{$x}}', '{{printf "%v" $x}}', '{{join "," $x}}', '{{eq $x $x}}']) {
      it(`shared structure — ${walk} at depth ${depth} → 400/40055 quickly, health stays fast`, async () => {
        const r = await sendWatchingHealth(hostile(depth, walk));
        // Which bound a walk reaches first depends on the machine's speed: the budget or the
        // deadline (40055), or, for a walk that builds a string (join, eq's operands), the
        // 1 Mi-character or 1 MB output bound (40045).
        assert.equal(r.status, 400);
        if (r.json.code === 40055) assert.equal(r.json.error, 'invalid request: template execution timed out');
        else assert.deepEqual([r.json.code, /longer than 1048576|output exceeds/.test(String(r.json.error))], [40045, true], JSON.stringify(r.json));
        assert.ok(r.ms < 1000, `${r.ms} ms`);
        assert.ok(r.healthMs < 500, `health ${r.healthMs} ms`);
      });
    }
  }
});

/** CPU time (user + system) the process `pid` has used, in ms, from /proc (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

describe('templates — the execution time limit (ntfy 2.26, GHSA-rhwf-xgc9-m9fp)', () => {
  const loops = {
    'a range of a billion': '{{ range $i := 1000000000 }}{{ end }}',
    'three nested ranges of 10,000': '{{ range until 10000 }}{{ range until 10000 }}{{ range until 10000 }}x{{ end }}{{ end }}{{ end }}',
    'a loop growing a string one character a turn': '{{ $s := "" }}{{ range until 10000 }}{{ range until 10000 }}{{ $s = cat $s "x" }}{{ end }}{{ end }}{{ len $s }}',
  };
  for (const [name, template] of Object.entries(loops)) {
    it(`${name} is stopped at ntfy's 100 ms: 400/40055, the server's CPU bounded, counted as a limit hit`, async () => {
      const node = await spawnServer(['--enable-metrics', 'true']);
      const pid = node.child.pid as number;
      const before = cpuMs(pid);
      const started = performance.now();
      const { status, json } = await publish(`${node.url}/loop`, '{}', { Template: 'yes', Message: template });
      const ms = performance.now() - started;
      const used = cpuMs(pid) - before;
      assert.deepEqual([status, json.code, json.error], [400, 40055, 'invalid request: template execution timed out']);
      assert.ok(ms < 500 && used <= 300, `answered in ${Math.round(ms)} ms using ${used} ms of CPU`);
      const scrape = await Scrape.of(`${node.url}/metrics`);
      assert.equal(scrape.value('ntfy_http_requests_total', { http_code: '400', ntfy_code: '40055', http_method: 'POST' }), 1);
      assert.equal(scrape.value('tocsin_limit_hits_total', { code: '40055' }), 1);
      assert.equal((await fetch(`${node.url}/v1/health`)).status, 200);
      node.child.kill();
    });
  }
});
