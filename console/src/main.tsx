import { render } from 'preact';
import { App } from './app';
import { language } from './i18n';

document.documentElement.lang = language();
const root = document.getElementById('root')!;
root.textContent = ''; // the page's "Loading…" line: render adds to what is there
render(<App />, root);
