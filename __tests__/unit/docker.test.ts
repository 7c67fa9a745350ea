import { describe, expect, it } from 'vitest';
import { type ComposeModel, labelOverride } from '../../src/docker/compose.js';
import { LABEL_MANAGED, LABEL_RUN_ID, projectName, runLabels } from '../../src/docker/labels.js';
import { nodeCommand } from '../../src/docker/runner-container.js';

const labels = { 'dev.perf-gate.managed': 'true', 'dev.perf-gate.run-id': 'abc123' };

describe('labelOverride', () => {
  it.each<[string, ComposeModel, Record<string, unknown>]>([
    ['services only', { services: { api: {}, db: {} } }, { services: { api: { labels }, db: { labels } } }],
    [
      'images of services that build are labelled too (the sweep removes them)',
      { services: { api: { build: { context: '/src/api' } }, db: { image: 'postgres:16' } } },
      { services: { api: { labels, build: { labels } }, db: { labels } } },
    ],
    [
      'networks and volumes compose creates are labelled',
      {
        services: { api: { image: 'x' } },
        networks: { default: { external: false }, backend: null },
        volumes: { data: {}, cache: null },
      },
      {
        services: { api: { labels } },
        networks: { default: { labels }, backend: { labels } },
        volumes: { data: { labels }, cache: { labels } },
      },
    ],
    [
      'external networks and volumes are skipped',
      {
        services: { api: {} },
        networks: { default: {}, shared: { external: true } },
        volumes: { data: {}, keep: { external: true } },
      },
      { services: { api: { labels } }, networks: { default: { labels } }, volumes: { data: { labels } } },
    ],
    [
      'no section at all when every network and volume is external',
      { services: { api: {} }, networks: { shared: { external: true } }, volumes: { keep: { external: true } } },
      { services: { api: { labels } } },
    ],
    [
      'empty sections are left out',
      { services: { api: {} }, networks: {}, volumes: {} },
      { services: { api: { labels } } },
    ],
    ['no services', { services: {} }, { services: {} }],
  ])('%s', (_label, model, expected) => {
    expect(labelOverride(model, labels)).toEqual(expected);
  });

  it('copies nothing of the service definitions', () => {
    const out = labelOverride({ services: { api: { image: 'secret/image', environment: { TOKEN: 'x' } } } }, labels);
    expect(JSON.stringify(out)).not.toContain('secret');
    expect(JSON.stringify(out)).not.toContain('TOKEN');
  });
});

describe('runLabels and projectName', () => {
  it('label everything with the run id', () => {
    expect(runLabels('abc123')).toEqual({ [LABEL_MANAGED]: 'true', [LABEL_RUN_ID]: 'abc123' });
    expect(projectName('abc123')).toBe('perfgate-abc123');
  });

  it('give distinct projects to distinct runs', () => {
    expect(projectName('a')).not.toBe(projectName('b'));
  });
});

describe('nodeCommand', () => {
  const args = ['/perf-gate/runner.mjs', '/perf-gate/plan.json'];
  it.each<[string, string[] | string | null | undefined, string[]]>([
    ['node:22-slim (docker-entrypoint.sh) → node', ['docker-entrypoint.sh'], ['node']],
    ['distroless /nodejs/bin/node is kept', ['/nodejs/bin/node'], ['/nodejs/bin/node']],
    ['an entrypoint that is node itself is kept', ['node'], ['node']],
    ['/usr/local/bin/node is kept', ['/usr/local/bin/node'], ['/usr/local/bin/node']],
    [
      'node with its own flags is kept',
      ['/nodejs/bin/node', '--max-old-space-size=256'],
      ['/nodejs/bin/node', '--max-old-space-size=256'],
    ],
    ['a string entrypoint naming node', '/usr/bin/node', ['/usr/bin/node']],
    ['a string shell-script entrypoint → node', 'docker-entrypoint.sh', ['node']],
    ['null → node', null, ['node']],
    ['undefined → node', undefined, ['node']],
    ['empty list → node', [], ['node']],
    ['tini in front → node', ['/sbin/tini', '--'], ['node']],
    ['a binary merely ending in node → node', ['/usr/bin/notnode-wrapper'], ['node']],
  ])('%s', (_label, entrypoint, expected) => {
    expect(nodeCommand(entrypoint, args)).toEqual({ Entrypoint: expected, Cmd: args });
  });
});
