import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const ISOLATION = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

export default defineConfig({
  plugins: [react()],
  // Presets, example configs and workloads live in the repository's top-level public/.
  publicDir: '../public',
  worker: { format: 'es' },
  // Cross-origin isolation: the browser's clock then steps by 5 µs instead of 100 µs, which is
  // what per-operation latencies are measured with (the app loads nothing from other origins).
  server: { host: 'localhost', fs: { allow: ['..'] }, headers: ISOLATION },
  preview: { host: 'localhost', headers: ISOLATION },
  build: { target: 'es2022', sourcemap: true },
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    // A hang guard, not a speed check: some tests run the engine or the Moose search for seconds,
    // and this machine is shared (speed is measured by `npm run bench`).
    testTimeout: 60_000,
  },
});
