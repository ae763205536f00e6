import type { Action } from '../model/action.js';
import type { Message } from '../model/message.js';

/** Where an escalation step goes: an e-mail (X-Email's channel) or a call (X-Call's). */
export type EscalationChannel = 'email' | 'call';

/** One `Escalate` step: sent `after` seconds past the publish if nobody acknowledged by then. */
export interface EscalationStep {
  after: number;
  via: EscalationChannel;
  /** The address or `+number`, as the publish's guards resolved it. */
  to: string;
}

/** A step that went out, and when (Unix seconds). */
export interface SentEscalation {
  step: number;
  at: number;
}

/**
 * An alert repeated until acknowledged (issue 37, item 5): the original message, how it
 * repeats, and what happened since. Kept by a ReceiptStore; times are Unix seconds.
 */
export interface Receipt {
  /** The original message's id. */
  id: string;
  topic: string;
  /** The original message, as published: each repeat is a copy of it with a new id and time. */
  message: Message;
  /** Seconds between repeats. */
  every: number;
  /** No repeat nor escalation after this time. */
  until: number;
  /** The receipt is dropped after this time (the alert's cache lifetime, at least `until`). */
  keepUntil: number;
  callback: string | undefined;
  escalations: EscalationStep[];
  /** Who published, as the escalations' mails (the address) and calls (the user, else the address) name the sender. */
  publisher: { address: string; user: string };
  /** 0 until acknowledged. */
  acknowledgedAt: number;
  acknowledgedBy: string;
  repeats: number;
  sent: SentEscalation[];
}

/** GET /v1/receipts/{id}'s answer, also what a Callback receives. */
export function receiptJson(r: Receipt): Record<string, unknown> {
  return {
    id: r.id,
    topic: r.topic,
    acknowledged: r.acknowledgedAt !== 0,
    acknowledged_at: r.acknowledgedAt,
    acknowledged_by: r.acknowledgedBy,
    repeats: r.repeats,
    expires: r.until,
    escalations: r.sent.map(({ step, at }) => {
      const s = r.escalations[step] as EscalationStep;
      return { via: s.via, to: s.to, sent_at: at };
    }),
  };
}

/**
 * The button every copy of a repeated alert carries: ntfy's apps send the request
 * themselves (an `http` action), so the acknowledgement needs no app of Tocsin's.
 */
export function acknowledgeAction(baseUrl: string, topic: string, id: string): Action {
  return { id: `ack${id.slice(0, 7)}`, action: 'http', label: 'Acknowledge', clear: true, url: `${baseUrl}/${topic}/${id}/ack`, method: 'PUT' };
}
