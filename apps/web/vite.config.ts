import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const server = process.env.ATHENA_API ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
  build: {
    target: 'es2022',
    // The login path is budgeted (≤ 350 KB gzipped); report sizes so regressions show in the build log.
    reportCompressedSize: true,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      // main.tsx imports lib/storage-fallback.ts first, and it must run before any module reads
      // storage. A chunk of its own is imported, and so run, before the others; folded into the
      // entry chunk, it would run after every chunk the entry imports.
      output: { codeSplitting: { groups: [{ name: 'storage-fallback', test: /lib[\\/]storage-fallback\.ts$/ }] } },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/accountv2': { target: server, changeOrigin: true },
      '/api': { target: server, changeOrigin: true },
      '/files': { target: server, changeOrigin: true },
    },
  },
});
