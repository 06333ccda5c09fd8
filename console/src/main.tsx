// Entry of the console bundle: styles, then the app into #app.
import { render } from 'preact';
import { App } from './app';
import './styles.css';

render(<App />, document.getElementById('app')!);
