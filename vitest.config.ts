import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['__tests__/**/*.test.ts'],
    // the multi-node swarm test is its own step (vitest.swarm.config.ts, npm run test:swarm)
    exclude: ['__tests__/swarm/**', '**/node_modules/**'],
    // integration tests share one Docker engine on a 2-core machine: one file at a time
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 300_000,
  },
});
