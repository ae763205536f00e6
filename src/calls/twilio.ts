import twilio from 'twilio';
import type { TwilioConfig } from '../config/schema.js';

/** How a number is verified: a text message or a call with the code. */
export type VerifyChannel = 'sms' | 'call';

/** A code that Twilio Verify did not approve (wrong, or for another number). */
export class CodeNotApproved extends Error {}

/** Twilio Verify has no verification under way for the number (it expired, or none was started): its 404. */
export class VerificationGone extends Error {}

/**
 * What to log of a failed request: the SDK's errors carry the request they failed, its
 * Authorization header (the auth token) included, so they are never logged whole.
 */
export function failureFields(err: unknown): Record<string, unknown> {
  if (err instanceof twilio.RestException) return { error: err.message, twilio_status: err.status, twilio_code: err.code };
  return { error: err instanceof Error ? err.message : String(err) };
}

/** Failed calls end a little sooner than the SDK's default of 30 s, so shutdown waits no longer. */
const requestTimeoutMs = 15_000;

/**
 * The Twilio REST APIs Tocsin uses, through the official SDK: placing a call with TwiML
 * (`Calls.json`) and Twilio Verify's verifications and checks. The SDK's domains are
 * pointed at twilio-calls-base-url and twilio-verify-base-url (a domain's `baseUrl`,
 * which its requests are resolved against), for Twilio-compatible providers and tests.
 */
export class TwilioGateway {
  private readonly client: twilio.Twilio;

  constructor(private readonly config: TwilioConfig) {
    this.client = twilio(config.account, config.authToken, { timeout: requestTimeoutMs });
    this.client.api.baseUrl = config.callsBaseUrl;
    this.client.verify.baseUrl = config.verifyBaseUrl;
  }

  /** Places a call from twilio-phone-number that says `twiml`; resolves with the call's SID. */
  async call(to: string, twiml: string): Promise<string> {
    const call = await this.client.calls.create({ from: this.config.phoneNumber, to, twiml });
    return call.sid;
  }

  /** Has Twilio Verify send a code to `to`. */
  async sendCode(to: string, channel: VerifyChannel): Promise<void> {
    await this.service().verifications.create({ to, channel });
  }

  /** Checks the code `to` received: resolves when approved, else CodeNotApproved or VerificationGone. */
  async checkCode(to: string, code: string): Promise<void> {
    let status: string;
    try {
      ({ status } = await this.service().verificationChecks.create({ to, code }));
    } catch (err) {
      if (err instanceof twilio.RestException && err.status === 404) throw new VerificationGone(err.message);
      throw err;
    }
    // A wrong code is a 200 whose status stays "pending" (ntfy looks at the HTTP status only).
    if (status !== 'approved') throw new CodeNotApproved(`verification ${status}`);
  }

  private service() {
    return this.client.verify.v2.services(this.config.verifyService);
  }
}
