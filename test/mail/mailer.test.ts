import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createTransport } from 'nodemailer';
import { HtmlPart } from '../../src/mail/outbound/html-part.js';
import { Mailer, type MailerOptions } from '../../src/mail/outbound/mailer.js';
import type { Message } from '../../src/model/message.js';
import { LogCapture } from '../support/log.js';
import { SmtpSink } from '../support/smtp.js';

/** The send queue against real SMTP peers: retries, permanent refusals, the bound. */

const message = (id: string): Message => ({ id, time: 1_700_000_000, event: 'message', topic: 'q', message: `message ${id}` });
const html = await HtmlPart.compile();

function mailer(port: number, options: MailerOptions, log = new LogCapture()): { mailer: Mailer; outcomes: boolean[]; log: LogCapture } {
  const outcomes: boolean[] = [];
  const transport = createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, pool: true, maxConnections: options.concurrency });
  const m = new Mailer(transport, html, { from: 'tocsin@example.com', baseUrl: 'https://t.example' }, log.logger, { mailSent: (ok) => outcomes.push(ok) }, options);
  after(() => m.close(0));
  return { mailer: m, outcomes, log };
}

describe('mail out — the send queue', () => {
  it('a relay\'s 451 is retried after each delay until it takes the mail', async () => {
    const sink = await SmtpSink.start({ refuseFirst: 2 });
    const { mailer: m, outcomes, log } = mailer(sink.port, { queueLimit: 10, concurrency: 1, retryDelaysMs: [20, 20] });
    m.send(message('a'), 'a@example.com', '10.0.0.1');
    const mail = await sink.mails.take(5000);
    assert.deepEqual([sink.attempts, mail.to, mail.parsed.subject], [3, ['a@example.com'], 'message a']);
    assert.equal((await log.next((l) => l.msg === 'e-mail sent')).attempts, 3);
    assert.deepEqual(outcomes, [true]);
    assert.equal(m.pending, 0);
  });

  it('retries spent: counted as failed and logged once, with the attempts', async () => {
    const sink = await SmtpSink.start({ refuseFirst: 10 });
    const { mailer: m, outcomes, log } = mailer(sink.port, { queueLimit: 10, concurrency: 1, retryDelaysMs: [10] });
    m.send(message('b'), 'b@example.com', '10.0.0.1');
    const line = await log.next((l) => l.msg === 'e-mail could not be sent');
    assert.deepEqual([line.email_to, line.id, line.attempts, sink.attempts, outcomes], ['b@example.com', 'b', 2, 2, [false]]);
  });

  it('a 5xx is final at once, a dead relay is retried', async () => {
    const refusing = await SmtpSink.start({ refuseAll: 554 });
    const { mailer: m, outcomes, log } = mailer(refusing.port, { queueLimit: 10, concurrency: 1, retryDelaysMs: [10, 10] });
    m.send(message('c'), 'c@example.com', '10.0.0.1');
    assert.equal((await log.next((l) => l.msg === 'e-mail could not be sent')).attempts, 1);
    assert.deepEqual([refusing.attempts, outcomes], [1, [false]]);
    const dead = mailer(1, { queueLimit: 10, concurrency: 1, retryDelaysMs: [10, 10] }); // nothing listens on port 1
    dead.mailer.send(message('d'), 'd@example.com', '10.0.0.1');
    const line = await dead.log.next((l) => l.msg === 'e-mail could not be sent');
    assert.equal(line.attempts, 3);
  });

  it('the bound: past queueLimit mails waiting, new ones are dropped, counted and logged; close drops the rest', async () => {
    const sink = await SmtpSink.start({ refuseAll: 451 });
    const { mailer: m, outcomes, log } = mailer(sink.port, { queueLimit: 3, concurrency: 1, retryDelaysMs: [60_000] });
    for (const id of ['1', '2', '3', '4', '5']) m.send(message(id), 'x@example.com', '10.0.0.1');
    assert.equal(m.pending, 3);
    assert.deepEqual(outcomes, [false, false]);
    const drop = await log.next((l) => l.msg === 'e-mails dropped: the send queue is full');
    assert.deepEqual([drop.dropped, drop.queueLimit], [1, 3]);
    await log.next((l) => String(l.msg).startsWith('e-mail not sent, retrying'));
    await m.close(5000); // waits for the send in flight (its 451 is not retried once closing)
    assert.equal(m.pending, 0);
    assert.deepEqual(outcomes, [false, false, false, false, false], 'two dropped, two unsent at close, one refused');
    m.send(message('6'), 'x@example.com', '10.0.0.1');
    assert.equal(m.pending, 0, 'a closed mailer takes nothing');
  });
});
