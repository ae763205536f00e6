import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { byConfiguration, medians, table, withRatios, withTable, type Row } from '../../bench/report.js';

const row = (server: string, value: number, name = 'publish rate'): Row => ({ scenario: 'publish', name, value, unit: 'req/s', better: 'higher', params: { topics: 1 }, server });

describe('bench — report', () => {
  it('medians: one row per server and figure, the median of the rounds, each round kept', () => {
    const rows = medians([row('tocsin', 30), row('ntfy', 8), row('tocsin', 10), row('ntfy', 6), row('tocsin', 20), row('ntfy', 7)]);
    assert.deepEqual(
      rows.map((r) => [r.server, r.value, r.rounds]),
      [
        ['tocsin', 20, [30, 10, 20]],
        ['ntfy', 7, [8, 6, 7]],
      ],
    );
  });

  it('medians: an even number of rounds gives the mean of the middle two; one round has no rounds', () => {
    assert.equal(medians([row('tocsin', 1), row('tocsin', 4), row('tocsin', 2), row('tocsin', 10)])[0]?.value, 3);
    assert.equal(medians([row('tocsin', 5)])[0]?.rounds, undefined);
  });

  it('withRatios: Tocsin over the ceiling (ratio) and over ntfy (vsNtfy); ntfy over the ceiling only', () => {
    const rows = withRatios([row('tocsin', 15_000), row('ntfy', 7500), row('ceiling', 60_000)]);
    assert.deepEqual(
      rows.map((r) => [r.server, r.ratio, r.vsNtfy]),
      [
        ['tocsin', 0.25, 2],
        ['ntfy', 0.125, undefined],
        ['ceiling', undefined, undefined],
      ],
    );
  });

  it('table: servers in order subject, ntfy, ceiling, then Tocsin over ntfy and over the ceiling', () => {
    const text = table(withRatios([row('ceiling', 60_000), row('ntfy', 7500), row('tocsin', 15_000)]));
    assert.equal(
      text,
      ['| figure | parameters | tocsin | ntfy | ceiling | unit | ÷ ntfy | ÷ ceiling |', '| --- | --- | --- | --- | --- | --- | --- | --- |', '| publish rate | topics=1 | 15,000 | 7,500 | 60,000 | req/s | 2.0× | 25% |'].join('\n'),
    );
  });

  it('table: without ntfy there is no ntfy column', () => {
    assert.equal(table(withRatios([row('tocsin', 30), row('ceiling', 60)])).split('\n')[0], '| figure | parameters | tocsin | ceiling | unit | ÷ ceiling |');
  });

  it('withTable replaces what lies between the markers, again and again, and keeps the rest', () => {
    const readme = '# Bench\n\n<!-- table: begin -->\nold\n<!-- table: end -->\n\nafter\n';
    const once = withTable(readme, '| a |');
    assert.equal(once, '# Bench\n\n<!-- table: begin -->\n| a |\n<!-- table: end -->\n\nafter\n');
    assert.equal(withTable(once, '| b |'), '# Bench\n\n<!-- table: begin -->\n| b |\n<!-- table: end -->\n\nafter\n');
  });

  it('withTable refuses a file without the markers', () => {
    assert.throws(() => withTable('# Bench\n', '| a |'), /no <!-- table: begin --> … <!-- table: end --> markers/);
  });

  it('byConfiguration: a line per configuration, a column per figure, extra params left out', () => {
    const figure = (nodes: number, name: string, value: number, extra = {}): Row => ({ scenario: 'cluster', name, value, unit: name === 'lost' ? 'msgs' : 'req/s', better: 'higher', params: { nodes, delay: '0ms', ...extra }, server: 'tocsin' });
    const text = byConfiguration([figure(1, 'publishes/s', 1234.5), figure(1, 'lost', 0, { rate: 50 }), figure(3, 'publishes/s', 2500), figure(3, 'lost', 2)], ['nodes', 'delay']);
    assert.equal(
      text,
      ['| nodes | delay | publishes/s (req/s) | lost (msgs) |', '| --- | --- | --- | --- |', '| 1 | 0ms | 1,235 | 0.00 |', '| 3 | 0ms | 2,500 | 2.00 |'].join('\n'),
    );
  });
});
