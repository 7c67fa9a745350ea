// The perf helper container (src/docker/perf-helper.ts): what it is created with, its script, and
// each refusal as one line. Its script and options were run by hand on the real engine (Docker
// 20.10.24) against a Go service: 199 samples in 2 s, read by readPerfScript; without the
// capabilities perf said "No permission to enable cycles:u event". Not yet in a run.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  PERF_HELPER_CAPS,
  perfHelperCreate,
  perfHelperRefusal,
  perfHelperScript,
} from '../../src/docker/perf-helper.js';

describe('perfHelperCreate', () => {
  it('joins the service’s PID namespace with the two capabilities, no network, a read-only root', () => {
    const c = perfHelperCreate({ image: 'perf:1', containerId: 'abc', windowMs: 5000, labels: { a: 'b' }, name: 'n' });
    expect(c.HostConfig).toEqual({
      PidMode: 'container:abc',
      CapAdd: ['SYS_ADMIN', 'SYS_PTRACE'],
      NetworkMode: 'none',
      ReadonlyRootfs: true,
      Tmpfs: { '/tmp': 'rw,size=256m' },
      AutoRemove: false,
    });
    expect([c.Image, c.name, c.Labels, c.Entrypoint]).toEqual(['perf:1', 'n', { a: 'b' }, ['sh', '-c']]);
    expect(c.Cmd).toEqual([perfHelperScript(5000)]);
    expect(PERF_HELPER_CAPS).not.toContain('PERFMON');
  });
});

/** The zombie child of `pid` (state Z in /proc/PID/stat), waited for up to 2 s. */
async function zombieOf(pid: number): Promise<string> {
  for (let i = 0; i < 200; i++) {
    for (const d of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
      const stat = (() => {
        try {
          return readFileSync(`/proc/${d}/stat`, 'utf8');
        } catch {
          return '';
        }
      })();
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state === 'Z' && ppid === String(pid)) return d;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no zombie child of ${pid}`);
}

describe('perfHelperScript', () => {
  it.each([
    [5000, 'sleep 5'],
    [1499, 'sleep 1'],
    [200, 'sleep 1'],
    [90_500, 'sleep 91'],
  ])('%i ms samples for %s, cpu-clock at 99 Hz with call chains', (ms, sleep) => {
    const s = perfHelperScript(ms);
    expect(s).toContain(`-- ${sleep} `);
    expect(s).toContain('perf record -q -e cpu-clock -F 99 -g -p "$pids"');
    expect(s).toMatch(/exec perf script -i \/tmp\/perf\.data$/);
  });

  // the script run by a real shell on this machine's /proc: a fake `perf` on PATH records its
  // arguments and its parent (the script's shell), which the list leaves out
  it('lists every process but its own shell and zombies, in one comma list, without forking to list them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'perf-helper-'));
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'perf'), '#!/bin/sh\necho "$PPID perf $*" >> "$LOG"\n', { mode: 0o755 });
    const log = join(dir, 'log');
    const parent = spawn('sh', ['-c', 'sh -c "exit 0" & exec sleep 5'], { stdio: 'ignore' });
    const zombie = await zombieOf(parent.pid as number);
    try {
      execFileSync('sh', ['-c', perfHelperScript(1000)], {
        env: { PATH: `${bin}:/usr/bin:/bin`, LOG: log },
        input: 'go\n',
      });
    } finally {
      parent.kill();
    }
    const [record, script] = execFileSync('cat', [log], { encoding: 'utf8' }).trim().split('\n');
    const pids = /-p (\S+)/.exec(record ?? '')?.[1]?.split(',') ?? [];
    // the host's /proc: many processes, each a number, none twice
    expect(pids.length).toBeGreaterThan(1);
    expect(pids.every((p) => /^\d+$/.test(p))).toBe(true);
    expect(new Set(pids).size).toBe(pids.length);
    const shell = record?.split(' ')[0];
    expect(pids).toContain('1');
    expect(pids).not.toContain(shell);
    // a zombie (a child its parent never reaps, made here: the shell's child exits, the shell has
    // become sleep) is left out, its parent kept: perf record -p cannot attach to a zombie
    expect(pids).not.toContain(zombie);
    expect(pids).toContain(String(parent.pid));
    expect(record).toMatch(/-o \/tmp\/perf\.data -- sleep 1$/);
    // exec'd: perf script takes the shell's place, its parent the shell's parent
    expect(script).toMatch(/^\d+ perf script -i \/tmp\/perf\.data$/);
    expect(script?.split(' ')[0]).not.toBe(shell);
  });
});

describe('perfHelperScript before its window', () => {
  it('waits for a line on stdin; EOF instead ends it with exit 4 and perf never runs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'perf-helper-'));
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'perf'), '#!/bin/sh\necho "perf $*" >> "$LOG"\n', { mode: 0o755 });
    const log = join(dir, 'log');
    const r = spawnSync('sh', ['-c', perfHelperScript(1000)], {
      env: { PATH: `${bin}:/usr/bin:/bin`, LOG: log },
      input: '',
      encoding: 'utf8',
    });
    expect(r.status).toBe(4);
    expect(r.stderr).toBe('perf-gate: stopped before its window\n');
    expect(existsSync(log)).toBe(false);
  });
});

describe('perfHelperRefusal: one line naming the service', () => {
  it.each([
    [0, '', undefined],
    [1, 'No permission to enable cycles:u event.\n\nYou may not have permission', /kernel refused perf_event_open/],
    [
      255,
      'Error:\nAccess to performance monitoring and observability operations is limited.\nConsider adjusting /proc/sys/kernel/perf_event_paranoid',
      /kernel refused/,
    ],
    [127, 'sh: perf: not found', /no `perf`/],
    [137, '', /killed \(exit 137\)/],
    [3, 'perf-gate: no process to sample', /no process left to sample/],
    [2, 'x'.repeat(5000), /exited 2: x{200}…$/],
    [1, '', /exited 1$/],
  ])('exit %i', (code, stderr, line) => {
    const out = perfHelperRefusal('api', code, stderr);
    if (line === undefined) expect(out).toBeUndefined();
    else {
      expect(out).toMatch(/^sut\.profile\.api: perf: /);
      expect(out).toMatch(line);
      expect(out).not.toContain('\n');
    }
  });
});
