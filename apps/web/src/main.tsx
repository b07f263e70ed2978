import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, routerReady } from './app/app';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
// Public pages arrive prerendered (see prerender.tsx): once the page's code is loaded, React adopts that
// markup (hydration) instead of building it again. /dashboard/* arrives with the static dashboard frame
// (`data-shell`), which the first render replaces; other routes start from the empty root.
void routerReady().then(() => {
  const prerendered = root.firstElementChild;
  if (prerendered && !prerendered.hasAttribute('data-shell')) hydrateRoot(root, app);
  else createRoot(root).render(app);
});
