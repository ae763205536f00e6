import { formatBytes } from '../lib/format.js';
import { BusiestTopics } from './BusiestTopics.js';
import type { Frame } from './feed.js';
import { formatNumber } from './format.js';
import { LimitsHit } from './LimitsHit.js';
import { LineChart } from './LineChart.js';
import { Tile } from './Tiles.js';

const formats = ['json', 'sse', 'raw', 'ws'] as const;
const formatColors: Record<(typeof formats)[number], string> = { json: '#4c8bf5', sse: '#2f9e89', raw: '#b267e6', ws: '#e08a2c' };

/** The figures of the latest frame, and the charts of the window of frames the page holds. */
export function Overview({ frames }: { frames: Frame[] }) {
  const latest = frames.at(-1) as Frame;
  const times = frames.map((f) => f.time);
  const open = formats.reduce((n, f) => n + latest.subscriptions[f], 0);
  return (
    <div class="overview">
      <div class="tiles">
        <Tile label="Subscriptions" value={formatNumber(open)} note={formats.map((f) => `${f} ${latest.subscriptions[f]}`).join(' · ')} />
        <Tile label="Topics" value={formatNumber(latest.topics)} />
        <Tile label="Visitors" value={formatNumber(latest.visitors)} />
        <Tile label="Cache size" value={formatBytes(latest.cache.bytes)} note={`${formatNumber(latest.cache.rows)} messages`} />
        <Tile label="Scheduled waiting" value={formatNumber(latest.scheduled)} />
        <Tile label="Slow subscribers dropped" value={formatNumber(latest.slow_subscribers_dropped)} />
      </div>
      <div class="charts">
        <LineChart title="Messages per second" times={times} series={[{ label: 'messages', color: '#2f9e89', values: frames.map((f) => f.messages_per_second) }]} />
        <LineChart title="Deliveries per second" times={times} series={[{ label: 'deliveries', color: '#e08a2c', values: frames.map((f) => f.deliveries_per_second) }]} />
        <LineChart
          title="Subscriptions by format"
          times={times}
          series={formats.map((f) => ({ label: f, color: formatColors[f], values: frames.map((fr) => fr.subscriptions[f]) }))}
        />
      </div>
      <div class="tables">
        <BusiestTopics topics={latest.busiest_topics} />
        <LimitsHit limits={latest.limits_hit} />
      </div>
    </div>
  );
}
