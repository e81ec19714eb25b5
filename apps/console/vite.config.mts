import react from '@vitejs/plugin-react';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');

// Served by the relay at /console (same origin): hashed assets cached for ever, index.html never,
// so an upgrade can never leave a browser asking for chunks that no longer exist.
export default defineConfig({
  root: here,
  base: '/console/',
  plugins: [react()],
  resolve: {
    alias: {
      '@chat-relay/contract': path.join(root, 'libs/contract/src/index.ts'),
      '@chat-relay/client': path.join(root, 'libs/client/src/index.ts'),
    },
  },
  build: {
    outDir: path.join(root, 'dist/apps/console'),
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
  },
});
