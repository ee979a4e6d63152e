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
