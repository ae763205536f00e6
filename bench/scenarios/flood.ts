import type { Figure, Scenario } from '../figures.js';
import type { HttpLoad } from '../load/autocannon.js';
import { hasWrk, runWrkScript } from '../load/wrk.js';
import { cpuSeconds } from '../proc.js';
import { startTocsin } from '../targets.js';

const connections = 64;

/**
 * wrk's Lua: POST to /bench with X-Forwarded-For naming address `BASE + ⌊i / EACH⌋ mod
 * ADDRESSES`, i counting requests: even ones IPv4 (10.x.y.z), odd ones IPv6, each in its own /64 (one
 * visitor each). With ADDRESSES=1 every request names 10.0.0.0 but the client does the
 * same work per request, so the two runs differ only in the server's visitor work.
 */
const script = `
wrk.method = "POST"
wrk.body = "bench publish"
local n = tonumber(os.getenv("ADDRESSES"))
local base = tonumber(os.getenv("BASE") or "0")
local each = tonumber(os.getenv("EACH") or "1")
local i = 0
request = function()
  local k = base + math.floor(i / each) % n
  i = i + 1
  local address
  if k % 2 == 0 then
    local v = k / 2
    address = string.format("10.%d.%d.%d", math.floor(v / 65536) % 256, math.floor(v / 256) % 256, v % 256)
  else
    local v = (k - 1) / 2
    address = string.format("2001:db8:%x:%x::1", math.floor(v / 65536), v % 65536)
  end
  return wrk.format(nil, "/bench", { ["X-Forwarded-For"] = address })
end
`;

const mb = (bytes: number | undefined): number => Math.round(((bytes ?? 0) / 1048576) * 10) / 10;
const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/**
 * 10. Address flood (Tocsin only, wrk only): publishes/s with every request from one
 * forwarded address and from distinct ones (half IPv4, half IPv6, behind-proxy on), on
 * the same server, in alternating rounds (other load on the machine hits both alike);
 * each flood round names `floodAddresses` addresses none seen before, so every request is
 * a new visitor. A third kind sends two requests from each address: the second makes it
 * a regular visitor, so past 100,000 each one evicts another from the main table, the
 * worst case for it. Reported: the medians and their ratio, the same for the server's CPU
 * time per publish (steady when other processes share the core), the server's RSS (peak, sampled
 * every 100 ms) and its heap after GC after each round, which must stay at the tables'
 * bound. Limits are raised out of the load's reach and the cache is off (cache-duration
 * 0), so the visitor work is the largest share it can be of a publish and the memory is
 * the tables', not cached messages'.
 */
export const floodScenario: Scenario = async (target, sizes) => {
  if (target.name !== 'tocsin') return [];
  if (!(await hasWrk())) {
    console.error('# flood: skipped, it needs wrk to vary X-Forwarded-For per request');
    return [];
  }
  const server = await startTocsin({
    settings: ['--behind-proxy', 'true', '--cache-duration', '0', '--visitor-request-limit-burst', '1000000000', '--visitor-message-daily-limit', '1000000000'],
  });
  const figures: Figure[] = [];
  const figure = (name: string, value: number, unit: string, params: Figure['params']): void => {
    figures.push({ scenario: 'flood', name, value, unit, better: unit === 'req/s' || unit === '%' ? 'higher' : 'lower', params });
  };
  let peakRss = server.rss() ?? 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, server.rss() ?? 0)), 100);
  try {
    figure('server RSS', mb(server.rss()), 'MB', { phase: 'started' });
    const kinds = ['single', 'flood', 'flood, 2 requests each'] as const;
    const rates: Record<(typeof kinds)[number], number[]> = { single: [], flood: [], 'flood, 2 requests each': [] };
    const cpu: Record<(typeof kinds)[number], number[]> = { single: [], flood: [], 'flood, 2 requests each': [] };
    let distinct = 0;
    for (let round = 0; round < sizes.floodRounds; round++) {
      for (const [k, kind] of kinds.entries()) {
        const addresses = kind === 'single' ? 1 : sizes.floodAddresses;
        const each = kind === 'flood, 2 requests each' ? 2 : 1;
        const base = kind === 'single' ? 0 : (2 * round + k) * addresses; // every flood round's addresses are new
        const l: HttpLoad = { url: server.url, topics: 1, connections, durationSeconds: sizes.floodSeconds, rate: 0 };
        const cpuBefore = cpuSeconds(server.pid) ?? 0;
        const r = await runWrkScript(l, script, { ADDRESSES: String(addresses), BASE: String(base), EACH: String(each) });
        // Server CPU per publish: what the rate would be on an idle core, whatever else runs.
        const cpuPerPublish = Math.round((((cpuSeconds(server.pid) ?? 0) - cpuBefore) / r.requests) * 1e7) / 10;
        cpu[kind].push(cpuPerPublish);
        if (r.errors > 0) throw new Error(`flood scenario: ${r.errors} failed publishes`);
        if (kind !== 'single') distinct += Math.min(Math.ceil(r.requests / each), addresses);
        rates[kind].push(r.rps);
        const params = { kind, round, addresses, requests: r.requests, connections };
        figure('publish rate', r.rps, 'req/s', params);
        figure('publish p99', r.p99, 'ms', params);
        figure('server CPU per publish', cpuPerPublish, 'µs', params);
        figure('server heap after GC', mb(await server.heapUsed()), 'MB', params);
        figure('server RSS after GC', mb(server.rss()), 'MB', params);
      }
    }
    const params = { rounds: sizes.floodRounds, 'distinct flood addresses': distinct, connections };
    const [single, singleCpu] = [median(rates.single), median(cpu.single)];
    figure('publish rate, one address (median)', single, 'req/s', params);
    figure('server CPU per publish, one address (median)', singleCpu, 'µs', params);
    for (const kind of ['flood', 'flood, 2 requests each'] as const) {
      const [rate, used] = [median(rates[kind]), median(cpu[kind])];
      figure(`publish rate, ${kind} (median)`, rate, 'req/s', params);
      figure(`${kind} rate / single rate`, Math.round((rate / single) * 1000) / 10, '%', params);
      figure(`server CPU per publish, ${kind} (median)`, used, 'µs', params);
      figure(`single CPU / ${kind} CPU per publish`, Math.round((singleCpu / used) * 1000) / 10, '%', params);
    }
    figure('server RSS peak', mb(peakRss), 'MB', params);
    return figures;
  } finally {
    clearInterval(sampler);
    await server.stop();
  }
};
