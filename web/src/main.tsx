import { render } from 'preact';
import { App } from './app/app.js';

render(<App />, document.getElementById('app') as HTMLElement);
