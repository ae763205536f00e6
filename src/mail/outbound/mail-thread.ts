/**
 * The mail thread (see mailer-thread.ts): renders and sends the mails the main thread
 * hands over in batches, and reports their outcomes and its log lines back, once per
 * event-loop turn.
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { pino } from 'pino';
import type { FromThread, ThreadInput, ToThread } from './mailer-thread.js';
import { relayMailer } from './relay.js';

const port = parentPort;
if (!port) throw new Error('mail-thread.js runs as a worker thread');
// Nice 19 for this thread alone (Linux keeps a nice value per thread, and setpriority(0)
// is the caller's): on a core the server saturates, mails wait (up to the queue's bound)
// rather than take CPU from publishing; an idle core sends them at full speed.
try {
  setPriority(19);
} catch {
  // not permitted here: the thread runs at the server's priority
}
const input = workerData as ThreadInput;
const post = (msg: FromThread): void => port.postMessage(msg);

let outcomes = { sent: 0, failed: 0 };
const report = (): void => {
  if (outcomes.sent + outcomes.failed === 0) return;
  post(outcomes);
  outcomes = { sent: 0, failed: 0 };
};
// Outcomes go first, so a log line never arrives before the count of what it tells.
const log = pino({ level: input.logLevel, base: undefined }, {
  write: (line: string) => {
    report();
    post({ log: line });
  },
});
const mailer = await relayMailer(input.sender, input.baseUrl, log, {
  mailSent: (ok) => {
    if (outcomes.sent + outcomes.failed === 0) setImmediate(report);
    if (ok) outcomes.sent++;
    else outcomes.failed++;
  },
}, input.options);

port.on('message', (msg: ToThread) => {
  if ('jobs' in msg) {
    for (const order of msg.jobs) mailer.queueOrder(order);
  } else {
    void mailer.close(msg.close).then(() => {
      report();
      post({ closed: true });
    });
  }
});
post({ ready: true });
