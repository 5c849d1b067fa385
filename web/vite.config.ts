import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  // Presets, example configs and workloads live in the repository's top-level public/.
  publicDir: '../public',
  worker: { format: 'es' },
  server: { host: 'localhost', fs: { allow: ['..'] } },
  preview: { host: 'localhost' },
  build: { target: 'es2022', sourcemap: true },
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    // A hang guard, not a speed check: some tests run the engine or the Moose search for seconds,
    // and this machine is shared (speed is measured by `npm run bench`).
    testTimeout: 60_000,
  },
});
