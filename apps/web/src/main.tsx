import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, routerReady } from './app/app';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
// Public pages arrive prerendered (see prerender.tsx): render once the page's code is loaded, so the
// prerendered markup is replaced by the same markup, with no loading state in between.
void routerReady().then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
