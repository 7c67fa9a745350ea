import { describe, expect, it } from 'vitest';
import { isMode, MODES, type ModeInput, resolveMode } from '../../src/mode.js';

describe('isMode', () => {
  it.each([['auto'], ['gate'], ['update'], ['sweep']])('%j is a mode', (value) => {
    expect(isMode(value)).toBe(true);
  });

  it.each([[''], ['Gate'], ['AUTO'], ['compare'], [' gate'], ['baseline']])('%j is not a mode', (value) => {
    expect(isMode(value)).toBe(false);
  });

  it('lists the four modes of the Action input', () => {
    expect([...MODES]).toEqual(['auto', 'gate', 'update', 'sweep']);
  });
});

describe('resolveMode', () => {
  it.each<[string | undefined, string]>([
    ['pull_request', 'gate'],
    ['pull_request_target', 'gate'],
    ['schedule', 'update'],
    ['push', 'update'],
    ['workflow_dispatch', 'sweep'],
    ['workflow_run', 'gate'],
    [undefined, 'gate'],
    ['', 'gate'],
  ])('auto on %j → %s', (event, mode) => {
    expect(resolveMode('auto', event)).toBe(mode);
  });

  it.each<[ModeInput, string | undefined]>([
    ['gate', 'push'],
    ['gate', 'workflow_dispatch'],
    ['update', 'pull_request'],
    ['update', undefined],
    ['sweep', 'pull_request'],
    ['sweep', 'schedule'],
  ])('an explicit %s wins over the event %j', (mode, event) => {
    expect(resolveMode(mode, event)).toBe(mode);
  });
});
