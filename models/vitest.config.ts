import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A hang guard, not a speed check (speed is measured by `npm run bench`): the exact MSLS
    // distributions and the Moose DP take seconds when the shared machine is busy.
    testTimeout: 60_000,
  },
});
