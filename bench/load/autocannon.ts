/** HTTP load with autocannon, in its own process on the load core. */
import autocannon from 'autocannon';
import { serveCommands } from '../worker.js';

export interface HttpLoad {
  url: string;
  topics: number;
  connections: number;
  durationSeconds: number;
  /** Requests per second across all connections; 0 for as fast as possible. */
  rate: number;
  /** An Authorization header sent with every request. */
  authorization?: string;
}

export interface HttpLoadResult {
  rps: number;
  /** Requests completed. */
  requests: number;
  p50: number;
  p99: number;
  errors: number;
}

serveCommands({
  run: async ({ url, topics, connections, durationSeconds, rate, authorization }: HttpLoad): Promise<HttpLoadResult> => {
    const result = await autocannon({
      url,
      connections,
      duration: durationSeconds,
      ...(rate > 0 ? { overallRate: rate } : {}),
      ...(authorization ? { headers: { Authorization: authorization } } : {}),
      requests: [
        {
          method: 'POST',
          body: 'bench publish',
          setupRequest: (req) => ({ ...req, path: topics === 1 ? '/bench' : `/bench${Math.floor(Math.random() * topics)}` }),
        },
      ],
    });
    return { rps: result.requests.average, requests: result.requests.total, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
  },
});
