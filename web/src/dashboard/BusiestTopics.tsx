import type { Frame } from './feed.js';
import { formatNumber } from './format.js';

/** The busiest topics of the last second; without access control the server withholds their names. */
export function BusiestTopics({ topics }: { topics: Frame['busiest_topics'] }) {
  return (
    <section class="panel" aria-label="Busiest topics">
      <h3>Busiest topics (last second)</h3>
      {topics.length === 0 ? (
        <p class="muted">No messages in the last second.</p>
      ) : (
        <table class="figures">
          <thead>
            <tr>
              <th>Topic</th>
              <th>Messages</th>
              <th>Deliveries</th>
            </tr>
          </thead>
          <tbody>
            {topics.map((t, i) => (
              <tr key={t.topic || i}>
                <td>{t.topic || <em class="muted">hidden</em>}</td>
                <td>{formatNumber(t.messages)}</td>
                <td>{formatNumber(t.deliveries)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
