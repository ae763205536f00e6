import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { cpuPerRequest, cpuSeconds, listeningPid, onCore, runQueueSeconds } from '../../bench/proc.js';

describe('bench — processes', () => {
  it('cpuPerRequest gives the CPU a process spent during the work per request it reports, and nothing it cannot tell', async () => {
    const busy = async (requests: number): Promise<{ requests: number }> => {
      const end = performance.now() + 100;
      while (performance.now() < end); // up to 100 ms of this process's CPU
      return { requests };
    };
    const { result, micros } = await cpuPerRequest(process.pid, () => busy(1000));
    assert.equal(result.requests, 1000);
    assert.ok(micros !== undefined && micros >= 20 && micros < 500, `${micros} µs a request`);
    assert.equal((await cpuPerRequest(process.pid, () => busy(0))).micros, undefined);
    assert.equal((await cpuPerRequest(undefined, () => busy(10))).micros, undefined);
  });

  it('listeningPid finds the process listening on a port (this one), and none on a closed port', async () => {
    const server = createServer().listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    try {
      assert.equal(listeningPid(port), process.pid);
    } finally {
      server.close();
      await once(server, 'close');
    }
    assert.equal(listeningPid(port), undefined);
  });

  it('runQueueSeconds and cpuSeconds read this process, and nothing for a pid that does not exist', () => {
    const wait = runQueueSeconds(process.pid);
    assert.equal(typeof wait, 'number');
    assert.ok((wait as number) >= 0);
    assert.ok((cpuSeconds(process.pid) as number) > 0);
    assert.equal(runQueueSeconds(2 ** 22 + 1), undefined);
    assert.equal(cpuSeconds(2 ** 22 + 1), undefined);
  });

  it('onCore runs the command through taskset on that core', () => {
    assert.deepEqual(onCore(1, 'wrk', ['-t1', 'http://x']), ['taskset', ['-c', '1', 'wrk', '-t1', 'http://x']]);
  });
});
