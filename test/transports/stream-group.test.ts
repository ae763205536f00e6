import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Outbound, type WireFormat } from '../../src/model/outbound.js';
import { TurnFlusher } from '../../src/transports/subscribe/flusher.js';
import { formats } from '../../src/transports/subscribe/framing.js';
import { StreamGroup, type GroupMember, type TurnEvents } from '../../src/transports/subscribe/stream-group.js';

const message = (id: string): Outbound => Outbound.of({ id, time: 1, event: 'message', topic: 't', message: id }, `{"id":"${id}"}`);

/** A member that records what the group hands it. */
class Recorder implements GroupMember {
  heldAtJoin: number | undefined;
  taken: { events: readonly Outbound[]; shared: Buffer }[] = [];
  leftGroup = false;

  constructor(readonly wireFormat: WireFormat) {}

  joined(group: TurnEvents): void {
    this.heldAtJoin = group.events.length;
  }

  left(): void {
    this.leftGroup = true;
  }

  take(events: readonly Outbound[], shared: Buffer): void {
    this.taken.push({ events, shared });
  }
}

/** Resolves after the flusher's setImmediate ran. */
const afterTurn = (): Promise<void> => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

describe('stream group — one shared write per turn', () => {
  it('hands every member the turn’s events once, framed and concatenated once per format', async () => {
    // given two SSE members and one JSON member
    const group = new StreamGroup(new TurnFlusher());
    const [sse1, sse2, json] = [new Recorder(formats.sse), new Recorder(formats.sse), new Recorder(formats.json)];
    for (const m of [sse1, sse2, json]) group.add(m);
    // when three events arrive in one turn
    const events = [message('a'), message('b'), message('c')];
    for (const e of events) group.deliver(e);
    await afterTurn();
    // then each member took them in one call, and members of one format share one Buffer
    for (const m of [sse1, sse2, json]) {
      assert.equal(m.taken.length, 1);
      assert.deepEqual(m.taken[0]?.events, events);
    }
    assert.equal(sse1.taken[0]?.shared.toString(), 'data: {"id":"a"}\n\ndata: {"id":"b"}\n\ndata: {"id":"c"}\n\n');
    assert.equal(sse1.taken[0]?.shared, sse2.taken[0]?.shared);
    assert.equal(json.taken[0]?.shared.toString(), '{"id":"a"}\n{"id":"b"}\n{"id":"c"}\n');
  });

  it('a single event’s shared Buffer is its frame, not a copy', async () => {
    const group = new StreamGroup(new TurnFlusher());
    const member = new Recorder(formats.json);
    group.add(member);
    const event = message('only');
    group.deliver(event);
    await afterTurn();
    assert.equal(member.taken[0]?.shared, event.frame(formats.json));
  });

  it('each turn is handed over on its own', async () => {
    const group = new StreamGroup(new TurnFlusher());
    const member = new Recorder(formats.json);
    group.add(member);
    group.deliver(message('a'));
    await afterTurn();
    group.deliver(message('b'));
    group.deliver(message('c'));
    await afterTurn();
    assert.deepEqual(
      member.taken.map((t) => t.shared.toString()),
      ['{"id":"a"}\n', '{"id":"b"}\n{"id":"c"}\n'],
    );
    assert.deepEqual(group.events, []);
  });

  it('a member joining mid-turn is told how many of the turn’s events came before it', async () => {
    const group = new StreamGroup(new TurnFlusher());
    const early = new Recorder(formats.json);
    group.add(early);
    group.deliver(message('a'));
    group.deliver(message('b'));
    const late = new Recorder(formats.json);
    group.add(late);
    group.deliver(message('c'));
    assert.equal(early.heldAtJoin, 0);
    assert.equal(late.heldAtJoin, 2);
    await afterTurn();
    assert.equal(late.taken[0]?.events.length, 3);
  });

  it('a turn without events hands nothing over', async () => {
    const group = new StreamGroup(new TurnFlusher());
    const member = new Recorder(formats.json);
    group.add(member);
    group.flush();
    await afterTurn();
    assert.deepEqual(member.taken, []);
  });

  it('remove tells the member and says when the group is empty', () => {
    const group = new StreamGroup(new TurnFlusher());
    const [a, b] = [new Recorder(formats.json), new Recorder(formats.raw)];
    group.add(a);
    group.add(b);
    assert.equal(group.remove(a), false);
    assert.equal(a.leftGroup, true);
    assert.equal(group.remove(b), true);
    assert.equal(group.remove(b), true);
  });

  it('a member removed during the flush (a dropped client closing) is skipped; the rest take the turn', async () => {
    const group = new StreamGroup(new TurnFlusher());
    const [a, b, c] = [new Recorder(formats.json), new Recorder(formats.json), new Recorder(formats.json)];
    a.take = (events, shared) => {
      a.taken.push({ events, shared });
      group.remove(a);
      group.remove(b);
    };
    for (const m of [a, b, c]) group.add(m);
    group.deliver(message('x'));
    await afterTurn();
    assert.equal(a.taken.length, 1);
    assert.equal(b.taken.length, 0);
    assert.equal(c.taken.length, 1);
  });
});
