import type { Subscription } from 'rxjs';
import type { Outbound } from '../../model/outbound.js';
import type { Replayed } from '../../model/replayed.js';
import { isEmptyFilter } from '../../operators/match-filter.js';
import { controlOutbound, openSubscription, type Opened } from '../../streams/subscription.js';
import { recordSlowSubscriber, replayLimitBytes, type ServerContext } from '../context.js';
import { Gate, runGuards, type Guard } from '../guards/guard.js';
import type { RequestInfo } from '../http/request.js';
import { billSubscriber } from './bill-subscriber.js';
import { parseSubscribe, type SubscribeParams } from './params.js';

/** A subscribe route's guards, by the step of the admission they run at (routes.ts declares them). */
export interface SubscribeGuards {
  /** Before the parameters are read. */
  request: readonly Guard[];
  /** Once they are read, before the subscriber is billed. */
  params: readonly Guard[];
  /** Right before the connection is accepted. */
  accept: readonly Guard[];
}

/** A subscription request until it is accepted (an HTTP request; a WebSocket's upgrade). */
export interface Admission {
  /** The client went away. */
  readonly gone: boolean;
  /**
   * Whether the subscription is opened (and its replay paid for) before it is accepted:
   * a WebSocket is accepted by upgrading, after which a refusal (42905) is no HTTP answer.
   */
  opensBeforeAccept(params: SubscribeParams): boolean;
  /** Accepts; the connection calls `subscriber.start` once events may go out on it. */
  accept(subscriber: Subscriber): void | Promise<void>;
}

/** An accepted connection the subscription's events go out on. */
export interface Connection {
  /** The wire format, for logs and metrics. */
  readonly format: string;
  /** Sends one event (the open event and the replay; every event of a filtered subscription). */
  send(event: Outbound): void;
  /** Runs `work`'s sends as one write. */
  batch(work: () => void): void;
  /** Sends the replayed messages, after the open event (a stream writes them as one block). */
  replay(replay: Replayed): void;
  /** poll=1: sends the replay (after its replay_gap events) at once and ends. */
  poll(opened: Opened): void;
  /** Joins the fan-out groups of `topics` (unfiltered subscriptions): events arrive through them from now on. */
  join(topics: readonly string[]): void;
  leave(topics: readonly string[]): void;
  /** The replay is out: the slow-consumer limit applies from now on. */
  live(): void;
  /** Ends the connection at shutdown (which closes the subscriber); ctx.connections holds it while live. */
  end(): void;
  /**
   * Ends the connection so that its client reconnects with `since=`: the live feed lost
   * events it may have carried (TopicHub.interrupt). Closes the subscriber.
   */
  interrupt(): void;
  /** The subscription closed: stops what the connection runs for it. */
  closed(): void;
}

/** `next` after `step`: at once when the step did not wait. */
function then(step: void | Promise<void>, next: () => void | Promise<void>): void | Promise<void> {
  return step ? step.then(next) : next();
}

/**
 * One subscription's lifecycle, whatever its transport: admitted through its route's
 * guards (the request, its parameters, billing its UnifiedPush topics, opening it with
 * the replay paid for, accepting the connection), then live — in its topics' fan-out
 * groups when unfiltered, on a subscription of its own when filtered — until the client
 * leaves, stops reading (the connection's slow-consumer policy: `dropped`), the hub ends
 * its topics' streams (the live feed lost events: the connection is interrupted) or the
 * server shuts down. Whatever it took (its visitor's subscription slot, the opened subscription)
 * is given back when it is refused or closes.
 */
export class Subscriber {
  readonly gate: Gate;
  private read: SubscribeParams | undefined;
  private subscription: Opened | undefined;
  private connection: Connection | undefined;
  private own: Subscription | undefined;
  private grouped = false;
  private done = false;

  /** Until the subscription is live. */
  private admission: Admission | undefined;

  constructor(
    ctx: ServerContext,
    admission: Admission,
    req: RequestInfo,
    readonly topics: readonly string[],
    private readonly guards: SubscribeGuards,
  ) {
    this.gate = new Gate(ctx, req, topics);
    this.admission = admission;
  }

  /** The parameters, as the admission read them, until the subscription is live. */
  get params(): SubscribeParams {
    if (!this.read) throw new Error('the parameters are read by the admission');
    return this.read;
  }

  /** The subscription, once opened (before the connection is accepted, when the admission opens it) until it is live. */
  get opened(): Opened | undefined {
    return this.subscription;
  }

  /**
   * Runs the admission, synchronously until a step waits; a refusal is thrown (or the
   * promise rejects with it) after what the guards took is given back.
   */
  admit(): void | Promise<void> {
    const { gate, guards } = this;
    const refused = (err: unknown): never => {
      this.release();
      throw err;
    };
    try {
      // The steps run as guards do: in order, each synchronously unless it must wait.
      const waiting = runGuards<void>(
        [
          () => runGuards(guards.request, gate),
          () => {
            this.read = parseSubscribe(gate.req);
          },
          () => runGuards(guards.params, gate),
          () => billSubscriber(gate),
          () => (this.admitting.opensBeforeAccept(this.params) ? this.open() : undefined),
          () => this.accept(),
        ],
        undefined,
      );
      return waiting ? waiting.catch(refused) : undefined;
    } catch (err) {
      return refused(err);
    }
  }

  /** Accepted: opens the subscription unless it is open already, then goes live on `connection`. */
  start(connection: Connection): void | Promise<void> {
    this.connection = connection;
    return then(this.opened ? undefined : this.open(), () => this.live(connection));
  }

  /** The client left, or the connection ended: gives everything back, once. */
  close(detail?: { code: number }): void {
    if (this.done) return;
    this.done = true;
    const { gate, topics, connection } = this;
    this.release();
    this.own?.unsubscribe();
    if (this.grouped) connection?.leave(topics);
    connection?.closed();
    const format = connection?.format;
    if (connection && gate.ctx.connections.delete(connection)) gate.ctx.subscriptions.closed(format ?? '', topics);
    gate.ctx.log.debug({ format, topics: topics.join(','), subscriptions: gate.visitor.subscriptions, remote: gate.req.remoteAddress, ...detail }, 'subscription closed');
  }

  /** The slow-consumer policy: the connection dropped a client that stopped reading; counted and logged. */
  dropped(): void {
    recordSlowSubscriber(this.gate.ctx, this.topics, this.connection?.format ?? '', this.gate.req.remoteAddress);
    this.close();
  }

  /**
   * Opens the subscription, its replay paid from the visitor's daily bandwidth as it is
   * read (42905, sending nothing, when too little is left: see openSubscription).
   */
  private open(): Promise<void> {
    const { gate } = this;
    const { ctx, topics, visitor } = gate;
    const deps = { hub: ctx.hub, cache: ctx.cache, feed: ctx.feed, replayLimit: replayLimitBytes };
    const allowance = {
      reserve: (bytes: number) => visitor.reserve(bytes, Date.now()),
      settle: (reserved: number, spent: number) => visitor.settle(reserved, spent, Date.now()),
    };
    return openSubscription(deps, { topics, ...this.params }, allowance).then((opened) => {
      this.subscription = opened;
      if (gate.released) opened.cancel(); // the client left meanwhile
    });
  }

  /**
   * Gives back what the guards took and lets go of the opened subscription's live topics.
   * Only until it is live: a cancel hook held for the subscription's life would hold the
   * replay pipeline with it (~0.9 KB).
   */
  private release(): void {
    this.gate.release();
    this.subscription?.cancel();
  }

  private get admitting(): Admission {
    if (!this.admission) throw new Error('the subscriber was admitted already');
    return this.admission;
  }

  private accept(): void | Promise<void> {
    if (this.admitting.gone) return this.release();
    return then(runGuards(this.guards.accept, this.gate), () => this.admitting.accept(this));
  }

  private live(connection: Connection): void {
    const { opened, params } = this;
    if (this.done || !opened) return; // the client left while it opened
    if (params.poll) {
      connection.poll(opened);
      // Written: let go of the messages. A subscriber already in the old generation would
      // keep them through every scavenge until a full GC (~13 MB copied per scavenge).
      this.subscription = undefined;
      return this.close();
    }
    this.gate.ctx.connections.add(connection);
    this.gate.ctx.subscriptions.opened(connection.format, this.topics);
    const send = (event: Outbound): void => connection.send(event);
    const unfiltered = isEmptyFilter(params.filter);
    // The hub ended the topics' streams (TopicHub.interrupt): while the subscription was
    // opening (its held stream ends as it is subscribed), or later when filtered.
    let ended = false;
    connection.batch(() => {
      send(controlOutbound('open', this.topics));
      opened.gaps.forEach(send);
      connection.replay(opened.replay);
      const held = opened.live$.subscribe({ next: send, complete: () => (this.own ? connection.interrupt() : (ended = true)) });
      if (unfiltered || ended) held.unsubscribe();
      else this.own = held;
    });
    if (ended) return connection.interrupt();
    if (unfiltered) {
      // The open event, the replay and whatever arrived meanwhile went out first; the
      // connection joins its topics' groups in the same synchronous step, so nothing falls between.
      connection.join(this.topics);
      this.grouped = true;
    }
    connection.live();
    // Live: what the subscription still needs, its own subscription or its groups hold.
    // Holding `opened`, the admission, the parameters and every request header as well
    // cost ~3.6 of the ~6.2 KB of heap of each idle subscription.
    this.subscription = undefined;
    this.admission = undefined;
    this.read = undefined;
    this.gate.settle();
  }
}
