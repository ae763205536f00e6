import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import type { Figure, Scenario } from '../figures.js';
import { compileCached } from '../../src/template/cache.js';

const root = new URL('../../../', import.meta.url);

/**
 * 9. Message templating (in process, Tocsin only): renders per second of the built-in
 * grafana template (title, message and priority, as one templated publish needs) on the
 * sample Grafana alert, through the compile cache a publish uses.
 */
export const templatesScenario: Scenario = async (target, sizes) => {
  if (target.name !== 'tocsin') return [];
  const file = parseYaml(readFileSync(new URL('templates/grafana.yml', root), 'utf8')) as Record<string, string>;
  const payload = readFileSync(new URL('test/fixtures/webhooks/grafana-firing.json', root), 'utf8');
  const fields = Object.values(file);
  const renderOnce = (): void => {
    const data = JSON.parse(payload) as unknown; // each publish parses its body
    for (const text of fields) compileCached(text, 'grafana').render(data);
  };
  for (let i = 0; i < 1000; i++) renderOnce(); // warm up the JIT
  let renders = 0;
  const started = performance.now();
  const until = started + sizes.publishSeconds * 1000;
  while (performance.now() < until) {
    for (let i = 0; i < 100; i++) renderOnce();
    renders += 100;
  }
  const perSecond = Math.round(renders / ((performance.now() - started) / 1000));
  const figure: Figure = { scenario: 'templates', name: 'grafana renders', value: perSecond, unit: 'renders/s', better: 'higher', params: { payload: 'grafana-firing', fields: fields.length } };
  return [figure];
};
