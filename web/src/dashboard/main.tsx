import { render } from 'preact';
import '../styles.css';
import './dashboard.css';
import { Dashboard } from './Dashboard.js';

render(<Dashboard />, document.getElementById('dashboard') as HTMLElement);
