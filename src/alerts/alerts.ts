import type { Logger } from 'pino';
import type { Caller } from '../calls/caller.js';
import type { MailSender } from '../mail/outbound/mailer.js';
import { errors } from '../model/errors.js';
import { nowSeconds, randomId, sequenceEvent, type Message } from '../model/message.js';
import type { TopicRetention } from '../model/topic-retention.js';
import type { ReceiptStore } from '../store/receipt-store.js';
import type { Publisher } from '../streams/publisher.js';
import type { AlertJobs } from '../streams/scheduler.js';
import type { AlertRequest } from './alert-request.js';
import type { CallbackSender } from './callback.js';
import { acknowledgeAction, receiptJson, type Receipt } from './receipt.js';

export interface AlertsDeps {
  store: ReceiptStore;
  jobs: AlertJobs;
  publisher: Publisher;
  retention: TopicRetention;
  callbacks: CallbackSender;
  mailer: MailSender | undefined;
  caller: Caller | undefined;
  log: Logger;
  baseUrl: string;
}

/**
 * Alerts repeated until acknowledged (issue 37, item 5). A publish with `Repeat` stores a
 * receipt and schedules Agenda jobs: the first repeat one interval on, each repeat the
 * next, and one job per escalation step. The jobs run on whichever node locks them, and
 * each asks the receipt store (atomically) whether it still may: an acknowledgement on any
 * node stops them all, and a job run twice sends once. Each repeat is the original with a
 * new id and time under the original's sequence id, so clients replace the notification.
 */
export class Alerts {
  constructor(private readonly deps: AlertsDeps) {}

  get store(): ReceiptStore {
    return this.deps.store;
  }

  /**
   * Readies a message for repeats before it is published: its sequence id (its own id when
   * it has none, as clients take it) and the Acknowledge button, in the place the parser
   * kept for it (see checkAlertActions).
   */
  prepare(message: Message): void {
    message.sequence_id ??= message.id;
    message.actions = [...(message.actions ?? []), acknowledgeAction(this.deps.baseUrl, message.topic, message.id)];
  }

  /** Stores the receipt of a published alert and schedules its repeats and escalations. */
  async start(message: Message, request: AlertRequest, publisher: Receipt['publisher']): Promise<void> {
    const every = Math.floor(request.everyMs / 1000);
    const until = message.time + Math.floor(request.untilMs / 1000);
    const receipt: Receipt = {
      id: message.id, topic: message.topic, message, every, until,
      keepUntil: Math.max(until, message.expires ?? until),
      callback: request.callback,
      escalations: request.escalations.map(({ afterMs, via, to }) => ({ after: Math.floor(afterMs / 1000), via, to })),
      publisher, acknowledgedAt: 0, acknowledgedBy: '', repeats: 0, sent: [],
    };
    await this.deps.store.add(receipt);
    await this.deps.jobs.repeatAt(receipt.id, 0, new Date((message.time + every) * 1000));
    for (const [step, { after }] of receipt.escalations.entries()) await this.deps.jobs.escalateAt(receipt.id, step, new Date((message.time + after) * 1000));
  }

  /**
   * Repeat `n + 1`, due `every` after the one before: sent late rather than never when the
   * job runs behind (a busy node, a restart), unless a whole interval past `until`. The
   * next is scheduled first, so a node dying after this repeat still leaves it to another.
   */
  async repeat(id: string, n: number): Promise<void> {
    const now = nowSeconds();
    const receipt = await this.deps.store.get(id);
    if (!receipt || receipt.acknowledgedAt !== 0 || receipt.repeats !== n) return;
    const due = receipt.message.time + (n + 1) * receipt.every;
    if (due > receipt.until || now > receipt.until + receipt.every) return;
    const next = due + receipt.every;
    if (next <= receipt.until) await this.deps.jobs.repeatAt(id, n + 1, new Date(Math.max(next, now) * 1000));
    if (!(await this.deps.store.repeated(id, n, due))) return;
    const original = receipt.message;
    const copy: Message = { ...original, id: randomId(), time: now, ...(original.expires !== undefined && { expires: now + original.expires - original.time }) };
    await this.deps.publisher.publish(copy, { cache: copy.expires !== undefined, deliver: true });
    this.deps.log.debug({ topic: receipt.topic, id, repeat: n + 1 }, 'alert repeated');
  }

  /** Escalation step `step`, through the server's mailer or caller; the limits were taken at publish. */
  async escalate(id: string, step: number): Promise<void> {
    const receipt = await this.deps.store.escalated(id, step, nowSeconds());
    const target = receipt?.escalations[step];
    if (!receipt || !target) return;
    if (target.via === 'email') this.deps.mailer?.send(receipt.message, target.to, receipt.publisher.address);
    else this.deps.caller?.place(receipt.message, target.to, receipt.publisher.user || receipt.publisher.address);
    this.deps.log.info({ topic: receipt.topic, id, via: target.via }, 'alert escalated');
  }

  /**
   * Acknowledges alert `id` of `topic` by `by`: the first acknowledgement drops its jobs,
   * clears the notification on every device (`message_clear` for its sequence id) and
   * POSTs the receipt to its Callback. Answers the receipt; 40403 when there is none.
   */
  async acknowledge(topic: string, id: string, by: string): Promise<Receipt> {
    if ((await this.deps.store.get(id))?.topic !== topic) throw errors.receiptNotFound;
    const result = await this.deps.store.acknowledge(id, by, nowSeconds());
    if (!result) throw errors.receiptNotFound; // pruned meanwhile
    const { receipt, first } = result;
    if (!first) return receipt;
    await this.deps.jobs.cancelAlert(id).catch((err: unknown) => this.deps.log.warn({ err, id }, 'dropping the jobs of an acknowledged alert failed; they will find it acknowledged'));
    const clear = sequenceEvent('message_clear', topic, receipt.message.sequence_id ?? id);
    const expires = this.deps.retention.expiresAt(clear.time, topic);
    if (expires !== undefined) clear.expires = expires;
    await this.deps.publisher.publish(clear, { cache: expires !== undefined, deliver: true });
    if (receipt.callback) this.callback(receipt.callback, receipt);
    return receipt;
  }

  /** The receipt goes to its Callback in the background; a failure is logged, never retried. */
  private callback(url: string, receipt: Receipt): void {
    const about = { topic: receipt.topic, id: receipt.id };
    this.deps.callbacks.send(url, receiptJson(receipt)).then(
      (status) => this.deps.log.debug({ ...about, status }, 'alert callback sent'),
      (err: unknown) => this.deps.log.warn({ ...about, err }, 'alert callback failed'),
    );
  }
}
