import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatCount,
  formatMs,
  formatUs,
  parseBytes,
  DURATION_PATTERN,
  parseDurationMs,
  parseLatencyUs,
  parsePercent,
} from '../../src/common/units.js';

describe("DURATION_PATTERN (the schema's) says yes exactly where parseDurationMs reads a duration", () => {
  it.each([
    '500ms',
    '30 s',
    '1m30s',
    '1h30m',
    '2s500ms',
    '30',
    '30s1m',
    '1m 30s',
    '1m30',
    'ms',
    '30sec',
    '30us',
    '-1s',
    '',
  ])('%j', (text) => {
    expect(new RegExp(DURATION_PATTERN).test(text)).toBe(parseDurationMs(text) !== undefined);
  });
});

describe('parseDurationMs', () => {
  it.each([
    ['500ms', 500],
    ['30s', 30_000],
    ['2m', 120_000],
    ['1h', 3_600_000],
    ['1.5s', 1500],
    ['0.25m', 15_000],
    ['0s', 0],
    [' 30s ', 30_000],
    ['30 s', 30_000],
    // Go's and k6's compound form
    ['1m30s', 90_000],
    ['1h30m', 5_400_000],
    ['2s500ms', 2500],
    ['1h0m5s', 3_605_000],
    ['1m0.5s', 60_500],
  ])('%j → %d ms', (text, ms) => {
    expect(parseDurationMs(text)).toBe(ms);
  });

  it.each([
    ['30'],
    [''],
    ['s'],
    ['-1s'],
    ['30sec'],
    ['30d'],
    ['30us'],
    ['1e3ms'],
    ['1,5s'],
    ['.5s'],
    ['thirty seconds'],
    // compound: largest unit first, each once, no spaces inside
    ['30s1m'],
    ['1m1m'],
    ['1m 30s'],
    ['1m30'],
    ['ms'],
  ])('%j → undefined', (text) => {
    expect(parseDurationMs(text)).toBeUndefined();
  });
});

describe('parseLatencyUs', () => {
  it.each([
    ['200us', 200],
    ['200µs', 200],
    ['1ms', 1000],
    ['2.5ms', 2500],
    ['0.5s', 500_000],
    ['1s', 1_000_000],
    ['50ms', 50_000],
    [' 1 ms ', 1000],
  ])('%j → %d µs', (text, us) => {
    expect(parseLatencyUs(text)).toBe(us);
  });

  it.each([['200'], ['5'], [''], ['1m'], ['1h'], ['200ns'], ['-1ms'], ['fast'], ['ms']])('%j → undefined', (text) => {
    expect(parseLatencyUs(text)).toBeUndefined();
  });
});

describe('parsePercent', () => {
  it.each([
    ['10%', 0.1],
    ['0.1%', 0.001],
    ['100%', 1],
    ['0%', 0],
    ['25.5%', 0.255],
    [' 25 % ', 0.25],
  ])('%j → %d', (text, fraction) => {
    expect(parsePercent(text)).toBeCloseTo(fraction, 12);
  });

  it.each([['10'], ['0.1'], ['%'], ['-5%'], ['10%%'], ['ten%'], ['']])('%j → undefined', (text) => {
    expect(parsePercent(text)).toBeUndefined();
  });
});

describe('parseBytes', () => {
  it.each([
    ['10b', 10],
    ['1kB', 1000],
    ['100MB', 100_000_000],
    ['1GB', 1_000_000_000],
    ['64kib', 65_536],
    ['512MiB', 512 * 1024 * 1024],
    ['2GiB', 2 * 1024 ** 3],
    ['1.5GiB', 1.5 * 1024 ** 3],
  ])('%j → %d bytes', (text, bytes) => {
    expect(parseBytes(text)).toBe(bytes);
  });

  it.each([['512'], ['MiB'], ['-1MiB'], ['1TiB'], ['1 megabyte'], ['']])('%j → undefined', (text) => {
    expect(parseBytes(text)).toBeUndefined();
  });
});

describe('formatUs', () => {
  it.each([
    [0, '0µs'],
    [1, '1µs'],
    [1.5, '1.5µs'],
    [99.5, '99.5µs'],
    [812, '812µs'],
    [1000, '1ms'],
    [1234, '1.23ms'],
    [12_345, '12.3ms'],
    [123_456, '123ms'],
    [1_000_000, '1s'],
    [1_234_567, '1.23s'],
    [60_000_000, '60s'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
  ])('%d µs → %j', (us, text) => {
    expect(formatUs(us)).toBe(text);
  });
});

describe('formatMs', () => {
  it.each([
    [0, '0ms'],
    [500, '500ms'],
    [1000, '1s'],
    [1500, '1.5s'],
    [30_000, '30s'],
    [60_000, '1m'],
    [90_000, '90s'],
    [120_000, '2m'],
  ])('%d ms → %j', (ms, text) => {
    expect(formatMs(ms)).toBe(text);
  });
});

describe('formatBytes', () => {
  it.each([
    [0, '0B'],
    [512, '512B'],
    [1024, '1KiB'],
    [1536, '1.5KiB'],
    [1024 ** 2, '1MiB'],
    [512 * 1024 ** 2, '512MiB'],
    [1024 ** 3, '1GiB'],
    [1024 ** 4, '1TiB'],
    [1024 ** 5, '1024TiB'],
  ])('%d → %j', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});

describe('formatCount', () => {
  it.each([
    [0, '0'],
    [1.5, '1.5'],
    [999, '999'],
    [9999, '9999'],
    [10_000, '10k'],
    [12_345, '12.3k'],
    [150_000, '150k'],
    [1_000_000, '1M'],
    [2_500_000, '2.5M'],
  ])('%d → %j', (n, text) => {
    expect(formatCount(n)).toBe(text);
  });
});
