import { defineConfig } from 'vitest/config';

// The multi-node swarm test (__tests__/swarm/): its own step in .ci/run, after `npm test`.
export default defineConfig({
  test: {
    include: ['__tests__/swarm/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 300_000,
  },
});
