import { render } from 'preact';
import { App } from './app/app.js';
import { startLanguage } from './lib/language-choice.js';
import './styles.css';

// The first render waits for the visitor's language (a small chunk unless English); should it fail to load, English shows.
void startLanguage()
  .catch(() => undefined)
  .then(() => render(<App />, document.getElementById('app') as HTMLElement));
