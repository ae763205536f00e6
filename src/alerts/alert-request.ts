import type { RepeatConfig } from '../config/schema.js';
import { maxActions } from '../model/action.js';
import { errors } from '../model/errors.js';
import type { Message } from '../model/message.js';
import { urlRefusal } from '../model/message-url.js';
import { parseDuration } from '../model/units.js';
import { isMailbox } from '../mail/outbound/address.js';
import { phoneNumberPattern } from '../calls/phone-number.js';
import { isTrueWord, param } from '../transports/http/params.js';
import type { RequestInfo } from '../transports/http/request.js';
import type { EscalationChannel } from './receipt.js';

/** What a publish asks of an alert repeated until acknowledged; durations in ms. */
export interface AlertRequest {
  everyMs: number;
  untilMs: number;
  callback: string | undefined;
  /** As asked: an address or `yes` (the user's own), a `+number` or `yes`; the guards resolve them. */
  escalations: { afterMs: number; via: EscalationChannel; to: string }[];
}

export interface AlertLimits {
  repeat: RepeatConfig;
  /** Set when e-mail may be sent (smtp-sender-addr). */
  smtpSender: object | undefined;
  /** Set when calls may be placed (twilio-account). */
  twilio: object | undefined;
}

/** An escalation is a few steps: each is an e-mail or a call, paid for at publish. */
export const maxEscalations = 5;

const stepPattern = /^(\S+)\s+(email|call)\s+(\S+)$/i;

/**
 * The `Repeat`, `Repeat-Until`, `Callback` and `Escalate` parameters (Tocsin's own, issue
 * 37), or undefined when the publish asks for no repeats. The others need `Repeat` (40099).
 * `Repeat-Until` defaults to repeat-until-default, at least one interval.
 */
export function parseAlertRequest(req: RequestInfo, limits: AlertLimits): AlertRequest | undefined {
  const repeat = param(req, 'repeat');
  const until = param(req, 'repeatUntil');
  const callback = param(req, 'callback');
  const escalate = param(req, 'escalate');
  if (repeat === '') {
    if (until !== '' || callback !== '' || escalate !== '') throw errors.repeatUnsupported;
    return undefined;
  }
  const { minIntervalMs, untilDefaultMs, untilLimitMs } = limits.repeat;
  const everyMs = durationOr(repeat, errors.repeatInvalid);
  if (everyMs < minIntervalMs || everyMs > untilLimitMs) throw errors.repeatInvalid;
  const untilMs = until === '' ? Math.min(Math.max(untilDefaultMs, everyMs), untilLimitMs) : durationOr(until, errors.repeatUntilInvalid);
  if (untilMs < everyMs || untilMs > untilLimitMs) throw errors.repeatUntilInvalid;
  return {
    everyMs,
    untilMs,
    callback: callback === '' ? undefined : callbackUrl(callback, limits.repeat.callbackAllowPrivate),
    escalations: escalate === '' ? [] : escalations(escalate, untilMs, limits),
  };
}

function durationOr(value: string, error: Error): number {
  try {
    return parseDuration(value);
  } catch {
    throw error;
  }
}

/** https:// only (a public address is checked when it is called), unless repeat-callback-allow-private. */
function callbackUrl(url: string, allowPrivate: boolean): string {
  if (urlRefusal(url, 'fetch') !== undefined) throw errors.callbackInvalid;
  if (!allowPrivate && !url.toLowerCase().startsWith('https://')) throw errors.callbackInvalid;
  return url;
}

/** `15m email ops@example.com, 30m call +15551234567`: each step within Repeat-Until, on a channel this server has. */
function escalations(value: string, untilMs: number, limits: AlertLimits): AlertRequest['escalations'] {
  const steps = value.split(',').map((s) => s.trim());
  if (steps.length > maxEscalations) throw errors.escalateInvalid;
  return steps.map((step) => {
    const match = stepPattern.exec(step);
    if (!match) throw errors.escalateInvalid;
    const [, after, channel, to] = match as unknown as [string, string, string, string];
    const afterMs = durationOr(after, errors.escalateInvalid);
    if (afterMs < 1000 || afterMs > untilMs) throw errors.escalateInvalid;
    const via = channel.toLowerCase() as EscalationChannel;
    if (via === 'email') {
      if (!limits.smtpSender) throw errors.emailDisabled;
      if (!isTrueWord(to) && !isMailbox(to)) throw errors.escalateInvalid;
    } else {
      if (!limits.twilio) throw errors.phoneCallsDisabled;
      if (!isTrueWord(to) && !phoneNumberPattern.test(to)) throw errors.escalateInvalid;
    }
    return { afterMs, via, to };
  });
}

/** The Acknowledge button takes one of a message's three action places: a repeated alert may ask for two (40018). */
export function checkAlertActions(message: Message): void {
  if ((message.actions?.length ?? 0) >= maxActions) throw errors.actionsInvalid.wrap(`only ${maxActions - 1} actions allowed with Repeat`);
}
