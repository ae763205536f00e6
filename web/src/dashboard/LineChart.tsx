import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatNumber } from './format.js';

export interface Series {
  label: string;
  color: string;
  values: number[];
}

const height = 170;
/** Greys that read on the light and the dark background alike (a canvas cannot use the page's CSS variables). */
const axis = { stroke: '#8a929c', grid: { stroke: 'rgba(138, 146, 156, 0.18)' }, ticks: { stroke: 'rgba(138, 146, 156, 0.3)' } };

/**
 * A live line chart (uPlot: canvas, ~50 KB, redraws 120 points in well under a
 * millisecond). Made once; each new frame only hands it the data. The caption shows the
 * latest values, which the Chromium test reads.
 */
export function LineChart({ title, times, series }: { title: string; times: number[]; series: Series[] }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | undefined>(undefined);
  const data: uPlot.AlignedData = [times, ...series.map((s) => s.values)];

  useEffect(() => {
    const el = box.current as HTMLDivElement;
    const options: uPlot.Options = {
      width: el.clientWidth,
      height,
      legend: { show: false },
      cursor: { show: false },
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] } },
      axes: [axis, { ...axis, size: 50 }],
      series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2, fill: `${s.color}22`, points: { show: false } }))],
    };
    plot.current = new uPlot(options, data, el);
    const resize = new ResizeObserver(() => plot.current?.setSize({ width: el.clientWidth, height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.current?.destroy();
    };
    // Made once: a chart's series never change, only its data (below).
  }, []);

  useEffect(() => {
    plot.current?.setData(data);
  });

  return (
    <figure class="chart" aria-label={title} data-points={times.length}>
      <figcaption>
        <span>{title}</span>
        {series.map((s) => (
          <span key={s.label} class="latest" data-series={s.label}>
            <i style={{ background: s.color }} /> {s.label} <strong>{formatNumber(s.values.at(-1) ?? 0)}</strong>
          </span>
        ))}
      </figcaption>
      <div ref={box} />
    </figure>
  );
}
