// "did you mean": close for the word's length, the first of equals, nothing for a word far from all.
import { describe, expect, it } from 'vitest';
import { closest, didYouMean, editDistance } from '../../src/text/did-you-mean.js';

describe('editDistance', () => {
  it.each<[string, string, number]>([
    ['', '', 0],
    ['run', 'run', 0],
    ['rn', 'run', 1],
    ['warmpu', 'warmup', 1],
    ['trails', 'trials', 1],
    ['kitten', 'sitting', 3],
    ['', 'abc', 3],
    ['config', 'CONFIG', 6],
  ])('%j → %j: %d', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });
});

const KEYS = ['name', 'connections', 'duration', 'requests', 'rate', 'max-in-flight'];

describe('closest', () => {
  it.each<[string, readonly string[], string | undefined]>([
    ['duraton', KEYS, 'duration'],
    ['connection', KEYS, 'connections'],
    ['DURATION', KEYS, 'duration'],
    ['max-inflight', KEYS, 'max-in-flight'],
    ['--conf', ['--config', '--out'], '--config'],
    ['nmae', KEYS, 'name'],
    // too far for the word's length
    ['ramp', KEYS, undefined],
    ['xyzzy', KEYS, undefined],
    ['', KEYS, undefined],
    ['anything', [], undefined],
    // equals: the one listed first
    ['rat', ['rate', 'rats'], 'rate'],
  ])('%j → %j', (word, candidates, expected) => {
    expect(closest(word, candidates)).toBe(expected);
  });

  it('says it in brackets, or says nothing', () => {
    expect(didYouMean('valdate', ['run', 'validate'])).toBe(' (did you mean validate?)');
    expect(didYouMean('zzz', ['run', 'validate'])).toBe('');
    expect(didYouMean('--outt', ['--out'], (s) => `\`${s}\``)).toBe(' (did you mean `--out`?)');
  });
});
