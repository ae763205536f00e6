import type { Logger } from 'pino';
import type { AccessControl } from '../auth/access-control.js';
import { repeatLocally, type LocalTimer } from '../housekeeping/local-timer.js';
import { nowSeconds, randomId, type Message } from '../model/message.js';
import type { MonitorStore } from '../store/monitor-store.js';
import type { Publisher } from '../streams/publisher.js';
import type { TopicRetention } from '../model/topic-retention.js';
import { alertOf, type Monitor } from './monitor.js';

export interface MonitorsOptions {
  /** monitor-limit: most monitors one user may have. */
  limit: number;
  /** monitor-check-interval, in ms. */
  checkEveryMs: number;
  /** Each topic's cache duration: an alert is cached as a publish would be (0: live only). */
  retention: TopicRetention;
}

/**
 * The monitors of this server: their store, and the check that turns those that missed
 * their heartbeat DOWN (ntfy's runMonitorChecker), every monitor-check-interval. Alerts are
 * published as their owner to `alert_topic`, through the publisher like any message
 * (cached, live, Web Push); the owner must still exist and may still write the topic
 * when the alert goes out, or it is dropped and logged — a monitor outlives neither.
 */
export class Monitors {
  private timer: LocalTimer | undefined;

  constructor(
    readonly store: MonitorStore,
    readonly options: MonitorsOptions,
    private readonly deps: { publisher: Publisher; access: AccessControl; log: Logger },
  ) {}

  start(): void {
    this.timer = repeatLocally(async () => void (await this.check(nowSeconds())), this.options.checkEveryMs);
  }

  /** Marks DOWN every monitor stale at `now` and alerts its owner; answers how many went down. */
  async check(now: number): Promise<number> {
    let down = 0;
    try {
      for (const monitor of await this.store.stale(now)) {
        if (!(await this.store.markDown(monitor.user, monitor.key, now))) continue; // a ping came meanwhile
        down++;
        await this.alert({ ...monitor, state: 'down' }, false);
      }
    } catch (err) {
      this.deps.log.warn({ err }, 'monitor check failed');
    }
    return down;
  }

  /** Publishes the DOWN (or, with `recovery`, UP) alert of `monitor`; failures are logged, never thrown. */
  async alert(monitor: Monitor, recovery: boolean): Promise<void> {
    const about = { monitor: monitor.key, user: monitor.user, topic: monitor.alertTopic };
    try {
      const owner = await this.deps.access.store.user(monitor.user);
      if (owner === undefined) return this.deps.log.warn(about, 'monitor alert dropped: its owner no longer exists');
      await this.deps.access.authorize(owner, [monitor.alertTopic], 'write');
      const now = nowSeconds();
      const expires = this.options.retention.expiresAt(now, monitor.alertTopic);
      const cache = expires !== undefined;
      const message: Message = {
        id: randomId(),
        time: now,
        event: 'message',
        topic: monitor.alertTopic,
        ...alertOf(monitor, recovery),
        priority: monitor.alertPriority,
        ...(cache && { expires }),
      };
      await this.deps.publisher.publish(message, { cache, deliver: true });
      this.deps.log.info({ ...about, state: recovery ? 'up' : 'down' }, 'monitor alert published');
    } catch (err) {
      this.deps.log.warn({ ...about, err }, 'monitor alert dropped');
    }
  }

  /** Stops the check; resolves once a check under way has finished. */
  async stop(): Promise<void> {
    await this.timer?.stop();
  }
}
