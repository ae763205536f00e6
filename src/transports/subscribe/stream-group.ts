import type { Outbound, WireFormat } from '../../model/outbound.js';
import type { Flushable, TurnFlusher } from './flusher.js';

/** The events a group received since its last flush, in delivery order. */
export interface TurnEvents {
  readonly events: readonly Outbound[];
}

/** An HTTP stream in a group (HttpSink). */
export interface GroupMember {
  readonly wireFormat: WireFormat;
  /** Joined `group`: what it received this turn so far is not for this member. */
  joined(group: TurnEvents): void;
  left(): void;
  /** The turn's events, and the same framed and concatenated in the member's format. */
  take(events: readonly Outbound[], shared: Buffer): void;
}

/**
 * The unfiltered HTTP streams of one topic set. Its events collect for the turn and go out
 * once, after it: framed and concatenated once per wire format, one corked write of that
 * one Buffer per member. Delivery costs the group O(1) per event instead of a queue push
 * and a flusher mark per member, and each member one write per turn instead of one per
 * frame. A member holding frames of its own (its replay, a keepalive, a backlog while the
 * client does not read) takes the events one by one after them instead (see HttpSink.take).
 */
export class StreamGroup<M extends GroupMember = GroupMember> implements Flushable, TurnEvents {
  readonly members = new Set<M>();
  events: Outbound[] = [];

  constructor(private readonly flusher: TurnFlusher) {}

  deliver(event: Outbound): void {
    if (this.events.length === 0) this.flusher.mark(this);
    this.events.push(event);
  }

  add(member: M): void {
    this.members.add(member);
    member.joined(this);
  }

  /** Whether the group is empty now. */
  remove(member: M): boolean {
    if (this.members.delete(member)) member.left();
    return this.members.size === 0;
  }

  flush(): void {
    const events = this.events;
    if (events.length === 0) return;
    this.events = [];
    const shared: (Buffer | undefined)[] = [];
    for (const member of this.members) {
      const format = member.wireFormat;
      member.take(events, (shared[format.slot] ??= concatFrames(events, format)));
    }
  }
}

function concatFrames(events: readonly Outbound[], format: WireFormat): Buffer {
  if (events.length === 1) return (events[0] as Outbound).frame(format);
  return Buffer.concat(events.map((event) => event.frame(format)));
}
