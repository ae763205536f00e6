import { Exchange } from '../transports/http/respond.js';
import { uws, type TemplatedApp } from '../transports/http/uws.js';
import type { Metrics } from './metrics.js';

/** Answers a scrape in Prometheus's text format. */
export async function serveMetrics(metrics: Metrics, ex: Exchange): Promise<void> {
  const { text, contentType } = await metrics.scrape();
  ex.send(200, text, contentType);
}

/**
 * The listener of metrics-listen-http. It answers every path and method with the metrics,
 * as ntfy's (a promhttp handler as the whole server), so a scrape config written for
 * ntfy works; it is not rate-limited and knows no topics.
 */
export function metricsApp(metrics: Metrics): TemplatedApp {
  const app = uws.App();
  app.any('/*', (res) => {
    const ex = new Exchange(res);
    serveMetrics(metrics, ex).catch((err: unknown) => ex.error(err));
  });
  return app;
}
