// What the config tests share (config.test.ts, config-defaults.test.ts): parsing a config's text as
// /ws/perf-gate.yml, a minimal valid config to edit, and where its first scenario's parts are.
import { expect } from 'vitest';
import { stringify } from 'yaml';
import { parseConfigText } from '../../src/config/load.js';
import type { Config } from '../../src/config-parts/types.js';

export const FILE = '/ws/perf-gate.yml';
export const stubResolver = (path: string): string => `/ws/${path}`;
export const parse = (text: string, resolvePath: (p: string) => string = stubResolver) =>
  parseConfigText(text, FILE, resolvePath);

/** Parses and expects a valid config. */
export function valid(text: string): Config {
  const { config, problems } = parse(text);
  expect(problems).toEqual([]);
  expect(config).toBeDefined();
  return config as Config;
}

export type Raw = Record<string, unknown>;

/** A minimal valid raw config; `edit` mutates a fresh copy. */
export function minimal(edit: (c: Raw & { scenarios: Raw[] }) => void = () => {}): string {
  const c = {
    version: 1,
    sut: { compose: 'docker-compose.yml' },
    scenarios: [
      {
        name: 's',
        request: { url: 'http://api:8080/' },
        phases: [{ connections: 10, duration: '30s' }],
      },
    ] as Raw[],
  };
  edit(c);
  return stringify(c);
}

export const scenario0 = (c: { scenarios: Raw[] }) => c.scenarios[0] as Raw;
export const request0 = (c: { scenarios: Raw[] }) => scenario0(c).request as Raw;
export const setPhases = (c: { scenarios: Raw[] }, ...phases: Raw[]) => {
  scenario0(c).phases = phases;
};
