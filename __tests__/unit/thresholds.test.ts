import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseConfigText } from '../../src/config/load.js';

const resolve = (p: string) => `/ws/${p}`;

function parse(defaults: unknown, scenarioThresholds?: unknown, scenarios = 1) {
  const doc = {
    version: 1,
    sut: { compose: 'c.yml' },
    defaults: { thresholds: defaults },
    scenarios: Array.from({ length: scenarios }, (_, i) => ({
      name: `s${i}`,
      request: { url: 'http://api/x' },
      phases: [{ connections: 1, duration: '1s' }],
      ...(scenarioThresholds ? { thresholds: scenarioThresholds } : {}),
    })),
  };
  return parseConfigText(stringify(doc), '/ws/perf-gate.yml', resolve);
}

describe('thresholds', () => {
  it('reports a bad default once, under defaults.thresholds', () => {
    const { problems } = parse({ p99: { floor: 5 } }, undefined, 2);
    expect(problems).toEqual(['defaults.thresholds.p99.floor: 5 has no unit; write a duration like 5ms or 5us']);
  });

  it('lets a scenario loosen a default upper limit (below and max are one limit)', () => {
    const { config } = parse({ p99: { max: '100ms', regress: '10%' } }, { p99: { below: '200ms' } });
    expect(config?.scenarios[0]?.thresholds.p99).toEqual({ regress: 0.1, limit: 200_000 });
  });

  it.each([
    [{ cpu: { max: '80%', floor: '5%' } }, { cpu: { limit: 80, floor: 5 } }],
    [{ 'error-rate': { max: 0 } }, { 'error-rate': { limit: 0 } }],
    [{ 'error-rate': { max: '0.1%' } }, { 'error-rate': { limit: 0.001 } }],
    [{ memory: { max: '64MiB' } }, { memory: { limit: 64 * 1024 * 1024 } }],
    [{ p50: { floor: '200μs' } }, { p50: { floor: 200 } }],
  ])('%j in base units (cpu in percent points)', (raw, expected) => {
    const { config, problems } = parse(raw);
    expect(problems).toEqual([]);
    expect(config?.scenarios[0]?.thresholds).toEqual(expected);
  });
});
