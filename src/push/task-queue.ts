import type { Logger } from 'pino';

export interface TaskQueueOptions {
  /** Tasks running at once. */
  concurrency: number;
  /** Tasks waiting at most; further ones are dropped, counted and logged. */
  limit: number;
  /** What the queue is for, in its log lines. */
  name: string;
}

/**
 * Work that must never hold up a publish (a push to a browser, a poll request upstream):
 * `push` only queues and returns; tasks start in a later event-loop turn (setImmediate),
 * `concurrency` at a time. A queue
 * that is full drops the task rather than grow the heap behind a slow or dead peer; the
 * drops are counted and logged at most once a second. A task reports its own failures;
 * one that throws anyway is logged.
 */
export class TaskQueue {
  private readonly waiting: (() => Promise<void>)[] = [];
  private active = 0;
  private readonly idle: (() => void)[] = [];
  private startScheduled = false;
  private droppedSinceLog = 0;
  private loggedAt = 0;
  /** Tasks dropped since start. */
  dropped = 0;

  constructor(
    private readonly log: Logger,
    private readonly options: TaskQueueOptions,
  ) {}

  /** Queues `task`; false when the queue was full and dropped it. */
  push(task: () => Promise<void>): boolean {
    if (this.waiting.length >= this.options.limit) {
      this.drop();
      return false;
    }
    this.waiting.push(task);
    // Started in a later turn: the synchronous start of a task (a store query, building a
    // request) must not run before the publishers of this turn are answered.
    if (this.startScheduled) return true;
    this.startScheduled = true;
    setImmediate(() => {
      this.startScheduled = false;
      this.next();
    });
    return true;
  }

  /** Resolves once nothing runs or waits (at shutdown, and in tests). */
  settled(): Promise<void> {
    if (this.active === 0 && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private next(): void {
    while (this.active < this.options.concurrency && this.waiting.length > 0) {
      const task = this.waiting.shift() as () => Promise<void>;
      this.active++;
      task()
        .catch((err: unknown) => this.log.error({ err, queue: this.options.name }, 'a queued task failed'))
        .finally(() => {
          this.active--;
          this.next();
          if (this.active === 0 && this.waiting.length === 0) for (const resolve of this.idle.splice(0)) resolve();
        });
    }
  }

  private drop(): void {
    this.dropped++;
    this.droppedSinceLog++;
    const now = Date.now();
    if (now - this.loggedAt < 1_000) return;
    this.log.warn({ queue: this.options.name, dropped: this.droppedSinceLog, limit: this.options.limit }, 'tasks dropped: the queue is full');
    this.loggedAt = now;
    this.droppedSinceLog = 0;
  }
}
