import { describe, expect, it } from 'vitest';
import { isMode, modeInputs, type ModeInput, resolveMode } from '../../src/modes/index.js';

describe('isMode', () => {
  it.each([['auto'], ['gate'], ['update'], ['sweep'], ['ab']])('%j is a mode', (value) => {
    expect(isMode(value)).toBe(true);
  });

  it.each([[''], ['Gate'], ['AUTO'], ['compare'], [' gate'], ['baseline']])('%j is not a mode', (value) => {
    expect(isMode(value)).toBe(false);
  });

  it('lists the five modes of the Action input', () => {
    expect(modeInputs()).toEqual(['auto', 'gate', 'ab', 'update', 'sweep']);
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
    ['ab', 'push'],
  ])('an explicit %s wins over the event %j', (mode, event) => {
    expect(resolveMode(mode, event)).toBe(mode);
  });

  it.each<[string | undefined, string]>([
    ['pull_request', 'ab'],
    ['pull_request_target', 'ab'],
    ['schedule', 'update'],
    ['push', 'update'],
    ['workflow_dispatch', 'sweep'],
    [undefined, 'gate'],
  ])('auto with gate.against base-ref on %j → %s', (event, mode) => {
    expect(resolveMode('auto', event, 'base-ref')).toBe(mode);
  });

  it('an explicit gate stays gate even when the config gates against the base ref', () => {
    expect(resolveMode('gate', 'pull_request', 'base-ref')).toBe('gate');
  });
});
