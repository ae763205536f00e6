import { receiptJson } from '../alerts/receipt.js';
import { errors } from '../model/errors.js';
import { isMessageId } from '../model/message.js';
import { Gate, runGuards, type Guard } from './guards/guard.js';
import type { Handler } from './routes.js';

/** Who acknowledged, as the receipt names them: the user, or no one known. */
const anonymous = 'anonymous';

/**
 * PUT/POST /{topic}/{message id}/ack: anyone who may read the topic acknowledges its
 * repeated alert (the Acknowledge button's request, made by ntfy's apps themselves).
 * Answers the receipt; again later, the same receipt, changing nothing.
 */
export const acknowledgeAlert =
  (guards: readonly Guard[]): Handler =>
  async (ctx, ex, req, [topic, id]) => {
    const gate = new Gate(ctx, req, [topic as string]);
    await runGuards(guards, gate);
    if (!isMessageId(id as string)) throw errors.messageIdInvalid;
    const receipt = await ctx.alerts.acknowledge(topic as string, id as string, gate.user?.name ?? anonymous);
    ex.json(receiptJson(receipt));
  };

/**
 * GET /v1/receipts/{message id}: the receipt, to whoever may read its topic. Who it is and
 * the request's cost are settled before the store is asked; a receipt of a topic the
 * request may not read is 40301, as the topic's messages would be.
 */
export const getReceipt =
  (guards: readonly Guard[]): Handler =>
  async (ctx, ex, req, [id]) => {
    const gate = new Gate(ctx, req, []);
    await runGuards(guards, gate);
    if (!isMessageId(id as string)) throw errors.messageIdInvalid;
    const receipt = await ctx.alerts.store.get(id as string);
    if (!receipt) throw errors.receiptNotFound;
    await ctx.access?.authorize(gate.user, [receipt.topic], 'read');
    ex.json(receiptJson(receipt));
  };
