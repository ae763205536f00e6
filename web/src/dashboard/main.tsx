import { render } from 'preact';

/** The operations dashboard (GET /dashboard); its charts and live feed come in the dashboard branch. */
function Dashboard() {
  return <h1>Tocsin dashboard</h1>;
}

render(<Dashboard />, document.getElementById('dashboard') as HTMLElement);
