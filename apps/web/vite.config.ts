import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const serverUrl = process.env.ATRIUM_SERVER_URL ?? 'http://localhost:3001';
const proxied = ['/api', '/public/api', '/oidc', '/healthz', '/readyz'];

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    port: 3000,
    strictPort: true,
    proxy: Object.fromEntries(proxied.map((prefix) => [prefix, { target: serverUrl, changeOrigin: false }])),
  },
  build: {
    target: 'es2022',
    sourcemap: true,
    // A strict CSP forbids inline scripts: keep Vite from inlining the modulepreload polyfill.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
});
