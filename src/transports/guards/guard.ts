import type { AlertRequest } from '../../alerts/alert-request.js';
import type { User } from '../../model/access.js';
import type { Message } from '../../model/message.js';
import type { Visitor } from '../../visitors/visitors.js';
import type { ServerContext } from '../context.js';
import type { RequestInfo } from '../http/request.js';

/**
 * One check of a request: it throws the ntfy error that refuses it, or returns. A guard
 * that must wait (the auth store) returns a promise; one that need not returns nothing,
 * so a chain of those stays synchronous (the WebSocket upgrade's fast path).
 */
export type Guard<T = Gate> = (subject: T) => void | Promise<void>;

const noEntries: ReadonlyMap<string, string> = new Map();

/**
 * A request about topics as its guards see it, and what they find out for the handler
 * after them: who it is and whose bill it goes on. The subscription slot a guard takes
 * is held here and given back on `release`.
 */
export class Gate {
  user: User | undefined = undefined;
  private billed: Visitor | undefined;
  /**
   * The visitor whose subscription slot the request holds. A field rather than a release
   * callback in a list: those were ~0.15 KB of each idle subscription's heap.
   */
  private slotOf: Visitor | undefined;
  /** The request's topics are held in the topic registry (a subscription's). */
  private topicsHeld = false;
  private isReleased = false;

  constructor(
    readonly ctx: ServerContext,
    readonly req: RequestInfo,
    readonly topics: readonly string[],
  ) {
    if (topics.length > 0) req.seen.topics = topics;
  }

  /**
   * The request is admitted and its connection stays open: lets go of every header and
   * query parameter (~0.9 KB of each idle subscription's heap), keeping what logs need
   * (address, method, path, what was seen). In place, since the Exchange's refusal log
   * holds the same request for as long as the stream is open.
   */
  settle(): void {
    this.req.headers = noEntries;
    this.req.query = noEntries;
  }

  /** The visitor the request is billed to, as the request-rate guard chose it. */
  get visitor(): Visitor {
    if (!this.billed) throw new Error('no request-rate guard ran before this one');
    return this.billed;
  }

  set visitor(visitor: Visitor) {
    this.billed = visitor;
  }

  /** Takes one of the billed visitor's subscription slots (42903 when none is left) until the request ends. */
  holdSubscription(): void {
    const visitor = this.visitor;
    visitor.subscribe();
    if (this.isReleased) visitor.unsubscribe(); // the request ended meanwhile: given back at once
    else this.slotOf = visitor;
  }

  /** The topic registry admitted the request's topics as a subscription's: they are held until the request ends. */
  holdTopics(): void {
    if (this.isReleased) this.ctx.topics.leave(this.topics); // the request ended meanwhile
    else this.topicsHeld = true;
  }

  /** The request ended: what the guards took is given back. */
  get released(): boolean {
    return this.isReleased;
  }

  /** Gives back what the guards took: the request was refused, or its connection closed. */
  release(): void {
    if (this.isReleased) return;
    this.isReleased = true;
    this.slotOf?.unsubscribe();
    if (this.topicsHeld) this.ctx.topics.leave(this.topics);
  }
}

/** A publish once parsed: what its message guards look at. */
export interface ParsedPublish {
  gate: Gate;
  /** The publisher says it is a UnifiedPush app server (`up=1`). */
  unifiedPush: boolean;
  /** The X-Email address, when it asks for one; the email-address guard puts the address it resolves to here. */
  email: string | undefined;
  /** The X-Call number, when it asks for a call; the call-limit guard puts the verified number it resolves to here. */
  call?: string | undefined;
  /** Repeats until acknowledged (`Repeat`); the alert-limits guard resolves its escalations' addresses and numbers. */
  alert?: AlertRequest | undefined;
}

/** An upload about to be stored as `message`'s attachment, kept until `expires` (Unix seconds). */
export interface Upload {
  gate: Gate;
  message: Message;
  expires: number;
}

/** A download about to send `bytes` of a file `owner` uploaded (see attachmentOwner). */
export interface Download {
  gate: Gate;
  owner: string;
  bytes: number;
}

/**
 * Runs `guards` in order until one throws; synchronously as long as each guard is, so a
 * chain of synchronous guards costs no promise.
 */
export function runGuards<T>(guards: readonly Guard<T>[], subject: T, from = 0): void | Promise<void> {
  for (let i = from; i < guards.length; i++) {
    const waiting = (guards[i] as Guard<T>)(subject);
    if (waiting) return waiting.then(() => runGuards(guards, subject, i + 1));
  }
}
