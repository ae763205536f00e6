import { callNumberOf } from './call-limit.js';
import { mailAddressOf } from './email-address.js';
import type { Guard, ParsedPublish } from './guard.js';

/**
 * A repeated alert pays at publish for all it may send, so one publish never costs more
 * than its visitor may spend: each planned repeat is one of the day's messages (42908), each
 * escalation step an e-mail (its address resolved as X-Email's; 42902) or a call (as
 * X-Call's: 40035, 40034, 42910). An acknowledgement gives nothing back.
 */
export const alertLimits: Guard<ParsedPublish> = async ({ gate, alert }) => {
  if (!alert) return;
  gate.visitor.messagesAhead(Date.now(), Math.floor(alert.untilMs / alert.everyMs));
  for (const step of alert.escalations) {
    if (step.via === 'call') {
      step.to = await callNumberOf(gate, step.to);
    } else {
      step.to = await mailAddressOf(gate, step.to);
      gate.visitor.email(Date.now());
    }
  }
};
