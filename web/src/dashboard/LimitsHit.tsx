import type { Frame } from './feed.js';
import { formatNumber, limitKind } from './format.js';

/** Requests refused by a limit since the server started, by kind (ntfy's codes). */
export function LimitsHit({ limits }: { limits: Frame['limits_hit'] }) {
  return (
    <section class="panel" aria-label="Limits hit">
      <h3>Limits hit (since start)</h3>
      {limits.length === 0 ? (
        <p class="muted">No request was refused by a limit.</p>
      ) : (
        <table class="figures">
          <thead>
            <tr>
              <th>Kind</th>
              <th>Code</th>
              <th>Refused</th>
            </tr>
          </thead>
          <tbody>
            {limits.map((l) => (
              <tr key={l.code}>
                <td>{limitKind(l.error)}</td>
                <td>{l.code}</td>
                <td>{formatNumber(l.count)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
