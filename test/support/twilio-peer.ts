import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Mailbox } from './clients.js';

/** One request the peer received, as the twilio SDK sent it. */
export interface TwilioRequest {
  method: string;
  path: string;
  /** The Basic credentials, decoded: `account:token`. */
  auth: string;
  contentType: string;
  form: Record<string, string>;
}

/** What the peer answers one request with. */
export interface TwilioAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * A Twilio-API-compatible HTTP peer on a free 127.0.0.1 port, for the SDK to be pointed at
 * (twilio-calls-base-url, twilio-verify-base-url): it records every request and answers
 * as Twilio does — a call is created (201), Verify sends `code` to a number (201) and a
 * check approves that code once (200 "approved"), leaves a wrong one "pending" (200), and
 * answers 404 (Twilio's error 20404) where no verification is under way. `answerCall`
 * replaces the answer to Calls.json, and may hold it back.
 */
export class TwilioPeer {
  readonly requests = new Mailbox<TwilioRequest>();
  /** Numbers with a verification under way, and the code sent to each. */
  readonly pending = new Map<string, string>();
  answerCall: (req: TwilioRequest) => TwilioAnswer | Promise<TwilioAnswer> = () => ({ status: 201, body: { sid: 'CA0000000000000000000000000000000a', status: 'queued' } });
  private calls = 0;

  private constructor(
    readonly url: string,
    readonly close: () => void,
  ) {}

  /** Close it in a top-level `after` (one registered here would run as soon as a `before` calling this ends). */
  static async start(code = '123456'): Promise<TwilioPeer> {
    const server = createServer((req, res) => void peer.handle(req, res, code));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const peer = new TwilioPeer(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, () => {
      server.closeAllConnections();
      server.close();
    });
    return peer;
  }

  private async handle(req: IncomingMessage, res: ServerResponse, code: string): Promise<void> {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    const auth = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
    const request: TwilioRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      auth,
      contentType: req.headers['content-type'] ?? '',
      form: Object.fromEntries(new URLSearchParams(text)),
    };
    this.requests.put(request);
    const { status, body } = await this.answer(request, code);
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  }

  private async answer(req: TwilioRequest, code: string): Promise<TwilioAnswer> {
    const to = req.form.To ?? '';
    if (req.path.endsWith('/Calls.json')) {
      this.calls++;
      return this.answerCall(req);
    }
    if (req.path.endsWith('/Verifications')) {
      this.pending.set(to, code);
      return { status: 201, body: { sid: 'VE0000000000000000000000000000000a', to, channel: req.form.Channel, status: 'pending', valid: false } };
    }
    if (req.path.endsWith('/VerificationCheck')) {
      const sent = this.pending.get(to);
      if (sent === undefined) return notFound(req.path);
      const approved = req.form.Code === sent;
      if (approved) this.pending.delete(to);
      return { status: 200, body: { sid: 'VE0000000000000000000000000000000a', to, status: approved ? 'approved' : 'pending', valid: approved } };
    }
    return notFound(req.path);
  }

  /** Calls.json requests received so far. */
  get callCount(): number {
    return this.calls;
  }
}

function notFound(path: string): TwilioAnswer {
  return { status: 404, body: { code: 20404, message: `The requested resource ${path} was not found`, more_info: 'https://www.twilio.com/docs/errors/20404', status: 404 } };
}
