import { parentPort, Worker } from 'node:worker_threads';

interface Call {
  id: number;
  method: string;
  args: unknown[];
}
type Reply = { id: number; result: unknown } | { id: number; error: unknown };

/**
 * Calls by method name into a worker thread that answers them with `serveCalls`, each a
 * promise of the answer. Arguments and answers cross as structured clones.
 */
export class WorkerCalls {
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void }>();
  private nextId = 0;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: Reply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if ('error' in reply) waiting?.reject(reply.error);
      else waiting?.resolve(reply.result);
    });
    worker.on('error', (err) => {
      for (const waiting of this.pending.values()) waiting.reject(err);
      this.pending.clear();
    });
  }

  /** Starts the worker `script` with `workerData`; resolves once it serves calls. */
  static open(script: URL, workerData: unknown): Promise<WorkerCalls> {
    const worker = new Worker(script, { workerData });
    return new Promise((resolve, reject) => {
      worker.once('error', reject);
      worker.once('message', () => {
        worker.off('error', reject);
        resolve(new WorkerCalls(worker));
      });
    });
  }

  call(method: string, ...args: unknown[]): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, method, args } satisfies Call);
    });
  }

  /** Calls `close` in the thread (its store's), then ends the thread. */
  async close(): Promise<void> {
    await this.call('close');
    await this.worker.terminate();
  }
}

/** The worker's side: answers each call with `answer`, in the order they come, once ready. */
export function serveCalls(answer: (method: string, args: unknown[]) => Promise<unknown>): void {
  const port = parentPort;
  if (!port) throw new Error('serveCalls runs in a worker thread');
  port.on('message', ({ id, method, args }: Call) => {
    answer(method, args).then(
      (result) => port.postMessage({ id, result } satisfies Reply),
      (error: unknown) => port.postMessage({ id, error } satisfies Reply),
    );
  });
  port.postMessage({ id: -1, result: 'ready' } satisfies Reply);
}
