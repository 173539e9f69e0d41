import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = process.env.VIOLET_API ?? 'http://127.0.0.1:8000';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Fonts and icons end up as files under /assets: the CSP allows no data: fonts.
    assetsInlineLimit: 0,
    // No inline module-preload polyfill script: the CSP allows no inline script.
    modulePreload: { polyfill: false },
  },
  server: {
    proxy: {
      '/graphql': { target: api, ws: true, changeOrigin: false },
      '/api': { target: api, changeOrigin: false },
    },
  },
});
