import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { shellMessages } from '#common/messages.ts';
import { precompress } from './scripts/precompress.ts';

/** Fills the start-up loader in index.html from the spec's text constant, so the text lives in one place. */
function startingText(): Plugin {
  return {
    name: 'dbui-starting-text',
    transformIndexHtml: (html) => html.replaceAll('%DBUI_STARTING%', shellMessages.starting),
  };
}

// The web app: index.html at the repository root, built into dist/web, which the server serves.
export default defineConfig({
  root: '.',
  publicDir: 'web/public',
  // precompress(): every asset also as .br and .gz once the build is written (decision 0055).
  plugins: [react(), startingText(), precompress()],
  resolve: {
    // `zod` in the web app is web/zod-config.ts: Zod with its eval-free setting applied before any schema is built,
    // wherever the first schema is (decision 0033: the home page loads no Zod, so main.tsx cannot import it first).
    alias: [{ find: /^zod$/, replacement: fileURLToPath(new URL('./web/zod-config.ts', import.meta.url)) }],
  },
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    // dist/web/.vite/manifest.json: each chunk's static and lazy imports, which scripts/bundle-budget.mjs reads to
    // sum what a first visit of a route loads (decision 0056). The server never serves it (a dot folder).
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // React and the router change rarely: one long-cached chunk. Everything else splits by route.
          groups: [
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
            // Zod and the setting that turns its eval off (web/zod-config.ts, what `zod` means here) travel together.
            { name: 'zod', test: /([\\/]node_modules[\\/]zod[\\/])|([\\/]web[\\/]zod-config\.ts$)/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false },
    },
  },
});
