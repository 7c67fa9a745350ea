// Shared plumbing of the benchmarks: start the fixture service on 127.0.0.1 pinned to one core,
// run a load tool pinned to the other, and parse what each tool prints. Traffic goes to 127.0.0.1
// only; every run is bounded by its duration.
import { spawn, spawnSync } from 'node:child_process';
import http2 from 'node:http2';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SUT = join(ROOT, 'fixtures/sut/bin/sut');

/** A module of src/ (a path under the repository) as it is now: bundled on the spot with esbuild and
 * imported, so a bench measures the tree it runs in, not dist/. */
export async function importSource(path) {
  const dir = mkdtempSync(join(tmpdir(), 'perf-gate-bench-'));
  try {
    return await bundled(join(ROOT, path), dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `entry` bundled with esbuild into `dir` and imported. */
async function bundled(entry, dir) {
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: join(dir, 'module.mjs'),
    // (an older tree unpacked elsewhere finds its packages here)
    nodePaths: [join(ROOT, 'node_modules')],
    logLevel: 'silent',
  });
  return import(join(dir, 'module.mjs'));
}
// PERF_GATE_RUNNER: another build of the runner (an older commit's dist/runner.mjs) to compare with
const RUNNER = process.env.PERF_GATE_RUNNER ?? join(ROOT, 'dist/runner.mjs');
const AUTOCANNON = join(ROOT, 'node_modules/autocannon/autocannon.js');
/** A module of src/ as it was at git `ref`: that commit's src/ tree is unpacked into a temporary
 * directory and the module bundled from there, so a bench can compare two versions side by side in
 * one run. */
export async function importSourceAt(ref, path) {
  const dir = mkdtempSync(join(tmpdir(), 'perf-gate-bench-'));
  try {
    const tar = spawnSync('git', ['-C', ROOT, 'archive', ref, 'src'], { maxBuffer: 1 << 30 });
    if (tar.status !== 0) throw new Error(`git archive ${ref}: ${tar.stderr}`);
    const untar = spawnSync('tar', ['-x', '-C', dir], { input: tar.stdout });
    if (untar.status !== 0) throw new Error(`tar: ${untar.stderr}`);
    return await bundled(join(dir, path), dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const EVENT_MARKER = '@@perf-gate ';

/** The generator runs on core 0, the target on core 1 (on a 1-core machine both share core 0). */
const CORES = cpus().length;
export const GENERATOR_CORE = '0';
export const TARGET_CORE = CORES > 1 ? '1' : '0';

export function machine() {
  const node = process.version;
  const wrk = spawnSync('wrk', ['-v'], { encoding: 'utf8' });
  const ohaV = spawnSync('oha', ['--version'], { encoding: 'utf8' });
  const nginxV = spawnSync('nginx', ['-v'], { encoding: 'utf8' });
  const hey = spawnSync('dpkg-query', ['-W', '-f=${Version}', 'hey'], { encoding: 'utf8' });
  const ac = JSON.parse(readFileSync(join(ROOT, 'node_modules/autocannon/package.json'), 'utf8')).version;
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: CORES,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node,
    wrk: `${wrk.stdout ?? ''}${wrk.stderr ?? ''}`.split(' Copyright')[0]?.trim() || 'not installed',
    hey: hey.stdout || 'not installed',
    autocannon: ac,
    oha: ohaV.stdout?.trim() || 'not installed',
    nginx: nginxV.stderr?.trim() || 'not installed',
  };
}

export function requireTools(names) {
  const missing = names.filter((n) => spawnSync('sh', ['-c', `command -v ${n}`]).status !== 0);
  if (missing.length) {
    console.error(`bench: missing ${missing.join(', ')}: run bash bench/setup.sh`);
    process.exit(2);
  }
  for (const f of [SUT, RUNNER]) {
    try {
      readFileSync(f);
    } catch {
      console.error(`bench: ${f} is missing: run npm run build and bash scripts/provision-images.sh`);
      process.exit(2);
    }
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Starts the fixture service on 127.0.0.1:port with the given environment, pinned to the target core. */
export async function startTarget(port, env = {}) {
  const child = spawn('taskset', ['-c', TARGET_CORE, SUT], {
    env: { ...process.env, GOMAXPROCS: '1', LISTEN: `127.0.0.1:${port}`, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr.setEncoding('utf8').on('data', (d) => (log += d));
  for (let i = 0; i < 100; i++) {
    if (log.includes('listening on')) break;
    if (child.exitCode !== null) throw new Error(`target exited: ${log}`);
    await sleep(50);
  }
  return {
    url: `http://127.0.0.1:${port}/work`,
    stop: () => child.kill('SIGKILL'),
  };
}

/** Runs a command to completion and returns its stdout (stderr passed through on failure). */
export function run(cmd, args, opts = {}) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
    if (opts.onSpawn) opts.onSpawn(child);
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolveRun(out) : reject(new Error(`${cmd} exited ${code}: ${err.slice(-2000)}`)),
    );
  });
}

const pinned = (cmd, args) => ['taskset', ['-c', GENERATOR_CORE, cmd, ...args]];

/** wrk's latency units to µs */
function wrkUs(text) {
  const m = /^([\d.]+)(us|ms|s)$/.exec(text.trim());
  if (!m) return NaN;
  const v = Number(m[1]);
  return m[2] === 'us' ? v : m[2] === 'ms' ? v * 1000 : v * 1e6;
}

export async function wrk(url, { connections, seconds }) {
  const out = await run(...pinned('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', url]));
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const pct = (p) => wrkUs(new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(out)?.[1] ?? '');
  return { tool: 'wrk', rps, p50: pct(50), p90: pct(90), p99: pct(99) };
}

export async function hey(url, { connections, seconds }) {
  const out = await run(...pinned('hey', ['-z', `${seconds}s`, '-c', String(connections), url]), {
    env: { ...process.env, GOMAXPROCS: '1' },
  });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  return { tool: 'hey', rps };
}

/** Plain autocannon (its CLI, its own millisecond histogram): the baseline our engine wraps. */
export async function autocannon(url, { connections, seconds, pipelining = 1 }) {
  const out = await run(
    ...pinned(process.execPath, [
      AUTOCANNON,
      '-c',
      String(connections),
      '-d',
      String(seconds),
      '-p',
      String(pipelining),
      '-j',
      url,
    ]),
  );
  const j = JSON.parse(out);
  return {
    tool: 'autocannon',
    rps: j.requests.total / j.duration,
    // autocannon reports whole milliseconds
    p50: j.latency.p50 * 1000,
    p90: j.latency.p90 * 1000,
    p99: j.latency.p99 * 1000,
  };
}

/**
 * perf-gate's own runner (dist/runner.mjs, the code that runs in the runner container) with one
 * phase; returns its trial measurement. `onSpawn` gets the child (for RSS sampling).
 */
/** The first `trial` event in a runner's output; throws with the output's tail when there is none. */
export function trialEvent(out) {
  const trial = out
    .split('\n')
    .filter((l) => l.startsWith(EVENT_MARKER))
    .map((l) => JSON.parse(l.slice(EVENT_MARKER.length)))
    .find((e) => e.t === 'trial');
  if (!trial) throw new Error(`perf-gate runner reported no trial:\n${out.slice(-2000)}`);
  return trial;
}

/** src/results/flags.ts GENERATOR_LIMITS, the runner pinned to one core (capacity 100%) */
export const GENERATOR_LIMITS = {
  cpuPct: 90,
  busyPct: 90,
  eventLoopDelayP99Us: 50_000,
  lateShare: 0.01,
  lateCount: 10,
};

/** Why a trial's generator counts as saturated by those limits (empty: it did not). */
export function generatorBoundReasons(m) {
  const g = m.generator;
  const bound = [];
  if (g.cpuPct >= GENERATOR_LIMITS.cpuPct) bound.push(`cpu ${Math.round(g.cpuPct)}%`);
  if (g.busyPct !== undefined && g.busyPct >= GENERATOR_LIMITS.busyPct) bound.push(`busy ${Math.round(g.busyPct)}%`);
  if (g.eventLoopDelayP99Us > GENERATOR_LIMITS.eventLoopDelayP99Us)
    bound.push(`loop lag p99 ${Math.round(g.eventLoopDelayP99Us / 1000)} ms`);
  if (
    m.open &&
    m.open.scheduled > 0 &&
    m.open.lateGenerator >= GENERATOR_LIMITS.lateCount &&
    m.open.lateGenerator / m.open.scheduled >= GENERATOR_LIMITS.lateShare
  )
    bound.push(`${m.open.lateGenerator} of ${m.open.scheduled} sends late`);
  return bound;
}

export async function perfGate(
  url,
  phase,
  {
    warmupMs = 1000,
    workers = 1,
    onSpawn,
    cores = GENERATOR_CORE,
    runner = RUNNER,
    target = {},
    // node's own flags for the runner (e.g. --cpu-prof)
    nodeArgs = [],
  } = {},
) {
  const dir = mkdtempSync(join(tmpdir(), 'perf-gate-bench-'));
  const plan = {
    version: 1,
    progressIntervalMs: 60_000,
    requestTimeoutMs: 10_000,
    workers,
    ready: [],
    scenarios: [
      {
        name: 'bench',
        // `target`: extra fields of the scenario's target, e.g. { http: 2 } for an HTTP/2 plan
        target: { kind: 'http', request: { url, method: 'GET', headers: {} }, ...target },
        warmupMs,
        trials: 1,
        phases: [phase],
      },
    ],
  };
  writeFileSync(join(dir, 'plan.json'), JSON.stringify(plan));
  const out = await run(
    'taskset',
    ['-c', cores, process.execPath, ...nodeArgs, runner, join(dir, 'plan.json'), '--all'],
    {
      onSpawn,
    },
  );
  const m = trialEvent(out).measurement;
  return {
    tool: `perf-gate ${phase.kind === 'open' ? 'open' : 'closed'} loop`,
    rps: m.rps,
    p50: m.latency.p50,
    p90: m.latency.p90,
    p99: m.latency.p99,
    measurement: m,
  };
}

/** The installed nginx's version as [major, minor, patch] ([0, 0, 0] when unknown). */
function nginxVersion() {
  const v = spawnSync('nginx', ['-v'], { encoding: 'utf8' });
  const m = /nginx\/(\d+)\.(\d+)\.(\d+)/.exec(`${v.stdout ?? ''}${v.stderr ?? ''}`);
  return m ? m.slice(1).map(Number) : [0, 0, 0];
}

/** A self-signed certificate for 127.0.0.1 (P-256, one day) in dir; returns the files' paths. */
function selfSignedCert(dir) {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  const r = spawnSync(
    'openssl',
    // prettier-ignore
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`openssl req failed: ${r.stderr}`);
  return { cert, key };
}

/** One HTTP/2 GET of url (h2c with prior knowledge, or h2 over TLS, any certificate): its :status. */
function http2Status(url) {
  return new Promise((resolveGet, reject) => {
    const session = http2.connect(url, { rejectUnauthorized: false });
    session.on('error', reject);
    const req = session.request({ ':path': new globalThis.URL(url).pathname });
    req.on('response', (h) => {
      resolveGet(h[':status']);
      session.close();
    });
    req.on('error', reject);
    req.resume();
    req.end();
  });
}

/**
 * nginx from Debian's package as the fast target: one worker pinned to the target core, keep-alive
 * for a million requests, a 17-byte answer from memory, on 127.0.0.1 only. `http2`: 'h2c' serves
 * HTTP/2 in plaintext with prior knowledge only (no HTTP/1.1 on that port), 'tls' serves h2 (ALPN)
 * over TLS with a self-signed certificate made in the temp dir; without it, HTTP/1.1 as before.
 */
export async function startNginx(port, { http2: h2 } = {}) {
  if (h2 !== undefined && h2 !== 'h2c' && h2 !== 'tls')
    throw new Error(`startNginx: http2 is 'h2c' or 'tls', not ${h2}`);
  const dir = mkdtempSync(join(tmpdir(), 'perf-gate-nginx-'));
  const conf = join(dir, 'nginx.conf');
  let listen = `listen 127.0.0.1:${port} backlog=4096;`;
  if (h2) {
    // nginx 1.25.1 moved HTTP/2 from the listen parameter to the `http2 on;` directive
    const [major, minor, patch] = nginxVersion();
    const http2On = major > 1 || (major === 1 && (minor > 25 || (minor === 25 && patch >= 1)));
    const ssl = h2 === 'tls' ? ' ssl' : '';
    listen = http2On
      ? `listen 127.0.0.1:${port}${ssl} backlog=4096; http2 on;`
      : `listen 127.0.0.1:${port}${ssl} http2 backlog=4096;`;
    listen += ' http2_max_concurrent_streams 1024;';
    if (h2 === 'tls') {
      const { cert, key } = selfSignedCert(dir);
      // TLS 1.3 where both sides offer it (nginx 1.22's default stops at 1.2)
      listen += ` ssl_protocols TLSv1.2 TLSv1.3; ssl_certificate ${cert}; ssl_certificate_key ${key};`;
    }
  }
  // an HTTP/2 server answers 505 to anything else (nginx over TLS would serve HTTP/1.1 by ALPN):
  // a client that falls back to HTTP/1.1 counts failures instead of measuring the wrong protocol
  const answer = `${h2 ? 'if ($server_protocol != "HTTP/2.0") { return 505; } ' : ''}return 200 "hello from nginx\\n";`;
  writeFileSync(
    conf,
    `worker_processes 1;\ndaemon off;\nerror_log ${dir}/error.log warn;\npid ${dir}/nginx.pid;\n` +
      `events { worker_connections 4096; }\n` +
      `http { access_log off; keepalive_requests 1000000; keepalive_timeout 300s;\n` +
      `  client_body_temp_path ${dir}; proxy_temp_path ${dir}; fastcgi_temp_path ${dir}; uwsgi_temp_path ${dir}; scgi_temp_path ${dir};\n` +
      `  server { ${listen} location / { ${answer} } } }\n`,
  );
  const child = spawn('taskset', ['-c', TARGET_CORE, 'nginx', '-c', conf, '-p', dir], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr.setEncoding('utf8').on('data', (d) => (log += d));
  const url = `${h2 === 'tls' ? 'https' : 'http'}://127.0.0.1:${port}/`;
  let ready = false;
  for (let i = 0; i < 100 && !ready; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${log}`);
    try {
      ready = h2 ? (await http2Status(url)) === 200 : (await globalThis.fetch(url)).ok;
    } catch {
      await sleep(50);
    }
  }
  if (h2 && !ready) {
    child.kill('SIGTERM');
    throw new Error(`nginx (${h2}) did not answer HTTP/2 on ${url}: ${log}`);
  }
  // SIGTERM, nginx's fast shutdown: the master stops its worker before it exits (a SIGKILLed master
  // leaves its worker running, orphaned, still listening)
  return { url, stop: () => child.kill('SIGTERM') };
}

/** h2load's time units (us, ms, s) to µs */
const h2loadUs = (text) => {
  const m = /^([\d.]+)(us|ms|s)$/.exec(text ?? '');
  if (!m) return NaN;
  return Number(m[1]) * (m[2] === 'us' ? 1 : m[2] === 'ms' ? 1000 : 1e6);
};

/**
 * h2load (nghttp2-client), one thread, closed loop: `connections` HTTP/2 connections with `streams`
 * concurrent requests each for `seconds`. An http:// URL is h2c with prior knowledge, https:// is h2
 * by ALPN. Its latency row ("time for request") gives min, max, mean and sd, no percentiles. h2load
 * exits 0 even when every request failed: this throws when none succeeded or any answer was 4xx/5xx,
 * and returns the count of failed requests otherwise.
 */
export async function h2load(url, { connections, streams, seconds }) {
  const out = await run(
    ...pinned('h2load', ['-t', '1', '-c', String(connections), '-m', String(streams), '-D', String(seconds), url]),
  );
  const line = (re) => re.exec(out)?.slice(1);
  const [rps] = line(/^finished in [^,]+, ([\d.]+) req\/s/m) ?? [];
  const [total, succeeded, failed, errored, timeout] =
    line(
      /^requests: (\d+) total, \d+ started, \d+ done, (\d+) succeeded, (\d+) failed, (\d+) errored, (\d+) timeout/m,
    ) ?? [];
  const [s2xx, s3xx, s4xx, s5xx] = line(/^status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx/m) ?? [];
  const [min, max, mean, sd] = line(/^time for request:\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)/m) ?? [];
  if (rps === undefined || succeeded === undefined) throw new Error(`h2load printed no result:\n${out.slice(-2000)}`);
  // "status codes" counts headers received, so it can run one ahead of "succeeded" at the -D cut
  if (Number(succeeded) === 0 || Number(s4xx) + Number(s5xx) > 0)
    throw new Error(
      `h2load: ${total} requests, ${succeeded} succeeded, ${failed} failed, ${errored} errored, ${timeout} timeout; status codes ${s2xx} 2xx, ${s3xx} 3xx, ${s4xx} 4xx, ${s5xx} 5xx`,
    );
  return {
    tool: 'h2load',
    rps: Number(rps),
    requests: Number(succeeded),
    /** requests that failed, errored or timed out (h2load exits 0 regardless) */
    failed: Number(failed),
    min: h2loadUs(min),
    max: h2loadUs(max),
    mean: h2loadUs(mean),
    sd: h2loadUs(sd),
    protocol: line(/^Application protocol: (\S+)/m)?.[0] ?? 'none',
    tls: line(/^TLS Protocol: (\S+)/m)?.[0],
    cipher: line(/^Cipher: (\S+)/m)?.[0],
  };
}

/** oha, open loop at a fixed rate with its latency correction (latency from the scheduled send). */
export async function oha(url, { rate, seconds, connections = 100 }) {
  const out = await run(
    ...pinned('oha', [
      '-q',
      String(rate),
      '--latency-correction',
      '-c',
      String(connections),
      '-z',
      `${seconds}s`,
      '--no-tui',
      '--output-format',
      'json',
      url,
    ]),
  );
  const j = JSON.parse(out);
  const p = j.latencyPercentiles;
  return { tool: 'oha', rps: j.summary.requestsPerSec, p50: p.p50 * 1e6, p90: p.p90 * 1e6, p99: p.p99 * 1e6 };
}

export const median = (xs) => {
  const v = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const m = Math.floor(v.length / 2);
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
};

export const fmtUs = (us) =>
  !Number.isFinite(us)
    ? '—'
    : us >= 1e6
      ? `${(us / 1e6).toFixed(2)} s`
      : us >= 1000
        ? `${(us / 1000).toFixed(2)} ms`
        : `${Math.round(us)} µs`;

export const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? (a / b).toFixed(2) : '—');

/** Prints a Markdown table. */
export function table(header, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  console.log(line(header));
  console.log(line(header.map(() => '---')));
  for (const r of rows) console.log(line(r));
  console.log('');
}

export function printMachine() {
  const m = machine();
  console.log(
    `machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB; node ${m.node}; ${m.wrk}; hey ${m.hey}; autocannon ${m.autocannon}; ${m.oha}; ${m.nginx}`,
  );
  console.log(`generator pinned to core ${GENERATOR_CORE}, target to core ${TARGET_CORE}\n`);
}

/** The fixture Go service's compose file (`fixtures/sut`), with `env` (DELAY, BURN, ...) as its environment. */
export function sutCompose(env) {
  const lines = Object.entries(env).map(([k, v]) => `      ${k}: ${v}`);
  return `services:
  api:
    build: ${join(ROOT, 'fixtures/sut')}
    environment:
${lines.join('\n')}
    healthcheck:
      test: ['CMD', '/sut', '-health', 'http://127.0.0.1:8080/health']
      interval: 1s
      retries: 30
`;
}

/** git in `dir`; throws with its stderr when it fails. */
export function git(dir, args) {
  const r = spawnSync('git', args, { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

/** A CPU hog: one core busy until stopped (or `maxMs` passed); returns its stop. */
export function cpuHog(maxMs = 3_600_000) {
  const child = spawn(process.execPath, ['-e', `const end = Date.now() + ${maxMs}; while (Date.now() < end);`], {
    stdio: 'ignore',
  });
  return () => child.kill('SIGKILL');
}

/** The noise injector: a CPU hog switched on and off at random every 2–8 s until stopped (a busy
 * shared runner); returns its stop. */
export function noiseInjector() {
  let stop;
  let timer;
  let stopped = false;
  const toggle = () => {
    if (stopped) return;
    if (stop) {
      stop();
      stop = undefined;
    } else if (Math.random() < 0.5) stop = cpuHog(60_000);
    timer = setTimeout(toggle, 2000 + Math.random() * 6000);
  };
  toggle();
  return () => {
    stopped = true;
    clearTimeout(timer);
    stop?.();
  };
}
