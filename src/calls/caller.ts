import type { Logger } from 'pino';
import type { Message } from '../model/message.js';
import type { Template } from '../template/index.js';
import { callTwiml } from './twiml.js';
import { failureFields, type TwilioGateway } from './twilio.js';

/** Told of each call's outcome (ntfy_calls_made_success|failure). */
export interface CallObserver {
  callMade(ok: boolean): void;
}

/**
 * Places the calls publishes ask for (`X-Call`), off the publish path: `place` returns at
 * once and the request to Twilio runs on its own, as ntfy's `go s.callPhone(...)`; an
 * outcome is only logged and counted, never reported to the publisher, who was answered
 * already. Calls are few (a tier's daily limit), so each simply runs at once; `close`
 * waits for those under way (the SDK's timeout bounds them).
 */
export class Caller {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly gateway: TwilioGateway,
    private readonly format: Template,
    private readonly log: Logger,
    private readonly observer?: CallObserver,
  ) {}

  /** Calls `to` and reads `message` out in twilio-call-format; `sender` is the publishing user's name, else their IP. */
  place(message: Message, to: string, sender: string): void {
    const about = { topic: message.topic, id: message.id, twilio_to: to };
    let twiml: string;
    try {
      twiml = callTwiml(this.format, message, sender);
    } catch (err) {
      // A format that parsed may still fail on some message (e.g. `index .Tags 3`): as ntfy, a failed call.
      this.observer?.callMade(false);
      this.log.warn({ ...about, error: (err as Error).message }, 'twilio-call-format failed');
      return;
    }
    const done = this.gateway.call(to, twiml).then(
      (sid) => {
        this.observer?.callMade(true);
        this.log.debug({ ...about, twilio_sid: sid }, 'phone call placed');
      },
      (err: unknown) => {
        this.observer?.callMade(false);
        this.log.warn({ ...about, ...failureFields(err) }, 'phone call failed');
      },
    );
    this.pending.add(done);
    void done.finally(() => this.pending.delete(done));
  }

  /** Waits for the calls under way. */
  async close(): Promise<void> {
    await Promise.all(this.pending);
  }
}
