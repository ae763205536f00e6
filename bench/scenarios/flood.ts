import type { Figure, Scenario } from '../figures.js';
import type { HttpLoad } from '../load/autocannon.js';
import { hasWrk, runWrkScript } from '../load/wrk.js';
import { startTocsin } from '../targets.js';

const connections = 64;

/**
 * wrk's Lua: POST to /bench with X-Forwarded-For naming address `BASE + i mod ADDRESSES`,
 * i counting requests: even ones IPv4 (10.x.y.z), odd ones IPv6, each in its own /64 (one
 * visitor each). With ADDRESSES=1 every request names 10.0.0.0 but the client does the
 * same work per request, so the two runs differ only in the server's visitor work.
 */
const script = `
wrk.method = "POST"
wrk.body = "bench publish"
local n = tonumber(os.getenv("ADDRESSES"))
local base = tonumber(os.getenv("BASE") or "0")
local i = 0
request = function()
  local k = base + i % n
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

/**
 * 10. Address flood (Tocsin only, wrk only): publishes/s with every request from one
 * forwarded address, then from `floodAddresses` distinct ones (half IPv4, half IPv6,
 * behind-proxy on), then from as many others, then from one again, on the same server;
 * and its RSS and heap after each (the second flood shows memory stays at its bound). Past 100,000 addresses every request is a new visitor and evicts old ones, the
 * worst case for the visitor table. Limits are raised out of the load's reach and the
 * cache is off (cache-duration 0), so the visitor work is the largest share it can be of
 * a publish and the RSS is the tables', not cached messages'.
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
  try {
    const figures: Figure[] = [];
    const run = async (addresses: number, phase: string, base = 0): Promise<number> => {
      const l: HttpLoad = { url: server.url, topics: 1, connections, durationSeconds: sizes.publishSeconds, rate: 0 };
      const r = await runWrkScript(l, script, { ADDRESSES: String(addresses), BASE: String(base) });
      if (r.errors > 0) throw new Error(`flood scenario: ${r.errors} failed publishes`);
      if (addresses > 1 && r.requests < addresses) console.error(`# flood: only ${r.requests} requests, so ${r.requests} of ${addresses} addresses`);
      const params = { addresses, phase, connections, requests: r.requests };
      const rss = server.rss();
      const heap = await server.heapUsed(); // after a full GC
      figures.push(
        { scenario: 'flood', name: 'publish rate', value: r.rps, unit: 'req/s', better: 'higher', params },
        { scenario: 'flood', name: 'server RSS', value: mb(rss), unit: 'MB', better: 'lower', params },
        { scenario: 'flood', name: 'server heap after GC', value: mb(heap), unit: 'MB', better: 'lower', params },
        { scenario: 'flood', name: 'server RSS after GC', value: mb(server.rss()), unit: 'MB', better: 'lower', params },
      );
      return r.rps;
    };
    figures.push({ scenario: 'flood', name: 'server RSS', value: mb(server.rss()), unit: 'MB', better: 'lower', params: { addresses: 0, phase: 'started' } });
    const before = await run(1, 'single, before');
    const flood = await run(sizes.floodAddresses, 'flood');
    // As many addresses again, none seen before: the tables stay at their bound.
    await run(sizes.floodAddresses, 'flood, new addresses', sizes.floodAddresses);
    const after = await run(1, 'single, after');
    const ratio = Math.round((flood / Math.max(before, after)) * 1000) / 10;
    figures.push({ scenario: 'flood', name: 'flood rate / single rate', value: ratio, unit: '%', better: 'higher', params: { addresses: sizes.floodAddresses } });
    return figures;
  } finally {
    await server.stop();
  }
};
