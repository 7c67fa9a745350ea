// k. Issue 22, step 1: is node:http2 (nghttp2 inside Node) with a pre-encoded request close enough
// to ghz to replace @grpc/grpc-js on the gRPC hot path, or does the measurement justify a
// hand-written HTTP/2 framing layer? Side by side in one run, interleaved rounds, on the same
// service (fixtures/grpc-search, `vectordb.VectorDB/Search`, Go, GOMAXPROCS=1, pinned to core 1)
// with every client pinned to core 0:
//   - ghz (v0.120.0, --connections=1), closed loop at N in flight, and --rps=500 -c N;
//   - perf-gate's runner as it is today (dist/runner.mjs, channels 1), as bench/grpc.mjs runs
//     it: @grpc/grpc-js when this evaluation was recorded, its own HTTP/2 client since;
//   - "grpc-js loop": a plain @grpc/grpc-js loop (makeUnaryRequest, serialised buffer, no
//     perf-gate around it) in this script's own harness, to separate grpc-js from perf-gate;
//   - "h2": a minimal unary gRPC client on node:http2: the request (5-byte gRPC prefix + protobuf
//     bytes) encoded once, one session.request() per call with one pre-built header object, the
//     answer's :status, grpc-status (trailers, or headers for a Trailers-Only answer) and bytes
//     read, per-call state on the stream object and shared listeners (no per-call closure), in
//     variants that try the cheap knobs (see CLOSED and OPEN below);
//   - "raw frames": HTTP/2 framed by hand over net.Socket with a full HPACK decoder (the ceiling a
//     hand-written framing layer could reach; see RawConnection).
// Both this script's clients run in a child process of this script (`--client`), one process per
// run, with 1 s of warm-up on their connections before the measured window; latency in µs into an
// HDR histogram (1 µs – 10 min, 3 digits, as src/runner-kit/histogram.ts builds it). Closed loop:
// latency from each call's start. Open loop (500/s): the schedule is send i at start + i × 2 ms, at
// most N in flight (a send that finds N in flight waits for a slot); latency both from the
// scheduled send time and from the moment the call was really started (what ghz and perf-gate
// report: neither charges its own timer's lateness to the service).
// "client CPU" is process.cpuUsage() over the measured window (this script's clients), perf-gate's
// own generator CPU over its measured phase, and ghz's whole process (start-up included, ~10 ms);
// "µs/call" is that CPU ÷ the calls completed in the window. "service CPU" is the service's share
// of its core, "other" the machine's busy CPU minus the service and the client (from /proc).
// Usage: node bench/h2-grpc-eval.mjs [seconds=5] [rounds=3] [concurrency=32]
//   BENCH_H2_ONLY=id,id,...  run only these variants (ids as printed)
// Needs ghz (bash bench/setup.sh), fixtures/grpc-search/bin/server and dist/runner.mjs. Traffic goes
// to 127.0.0.1 only; every run is bounded by its duration and a hard timeout. No timing is asserted.
import { Buffer } from 'node:buffer';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import http2 from 'node:http2';
import net from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import { build } from 'hdr-histogram-js';
import protobuf from 'protobufjs';
import {
  GENERATOR_CORE,
  ROOT,
  TARGET_CORE,
  fmtUs,
  generatorBoundReasons,
  median,
  printMachine,
  table,
  trialEvent,
} from './lib.mjs';

const SELF = fileURLToPath(import.meta.url);
const SERVER = join(ROOT, 'fixtures/grpc-search/bin/server');
const PROTO = join(ROOT, 'fixtures/grpc-search/search.proto');
const RUNNER = join(ROOT, 'dist/runner.mjs');
const MESSAGE = { collection: 'docs', k: 10, vector: [0.12, -0.5, 0.33, 0.9, -0.07, 0.41, 0.05, -0.66] };
const PATH = '/vectordb.VectorDB/Search';
const RATE = 500;
const WARMUP_MS = 1000;
const DEADLINE_MS = 10_000;
const PORT = 18196;
const MARK = '@@h2-eval ';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// the proto, loaded once: the request encoded by protobufjs (what @grpc/proto-loader does for grpc-js)
const root = new protobuf.Root();
root.loadSync(PROTO, { keepCase: true });
root.resolveAll();
const REQUEST = Buffer.from(root.lookupType('vectordb.SearchRequest').encode(MESSAGE).finish());
/** the gRPC length-prefixed message: compressed flag 0, 4-byte big-endian length, the protobuf bytes */
const FRAMED = Buffer.alloc(5 + REQUEST.length);
FRAMED.writeUInt32BE(REQUEST.length, 1);
REQUEST.copy(FRAMED, 5);

// =============================================================================================
// the clients (child process: node bench/h2-grpc-eval.mjs --client '<json>')

function histogram() {
  return build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 600_000_000,
    numberOfSignificantValueDigits: 3,
    bitBucketSize: 32,
    useWebAssembly: false,
  });
}
const recordUs = (h, us) => h.recordValue(Math.min(600_000_000, Math.max(1, Math.round(us))));

/**
 * Drives calls closed or open loop. `issue(sched, sent)` starts one call; the call reports back with
 * `done(sched, sent, status, bytes)`. Only calls completed inside the measured window count.
 */
class Driver {
  constructor(o) {
    this.o = o;
    this.fromSend = histogram();
    this.fromSched = histogram();
    this.measuring = false;
    this.stopping = false;
    this.inFlight = 0;
    this.ok = 0;
    this.notOk = {};
    this.bytes = 0;
    this.lateSends = 0; // open loop: measured sends started > 1 ms after their due time
    this.sends = 0;
    this.issue = undefined;
    this.finished = new Promise((r) => (this.finish = r));
  }

  done(sched, sent, status, bytes) {
    this.inFlight--;
    const now = performance.now();
    if (this.measuring) {
      if (status === 'OK') {
        this.ok++;
        recordUs(this.fromSend, (now - sent) * 1000);
        recordUs(this.fromSched, (now - sched) * 1000);
        this.bytes += bytes;
      } else this.notOk[status] = (this.notOk[status] ?? 0) + 1;
    }
    if (this.stopping) {
      if (this.inFlight === 0) this.finish();
    } else if (this.o.mode === 'closed') this.issue(now, now);
    else this.pump();
  }

  start() {
    const o = this.o;
    const t0 = performance.now();
    const windowStart = t0 + WARMUP_MS;
    const windowEnd = windowStart + o.seconds * 1000;
    setTimeout(() => {
      this.cpu0 = process.cpuUsage();
      this.at0 = performance.now();
      this.measuring = true;
      process.stdout.write(`${MARK}measure\n`);
    }, windowStart - t0);
    setTimeout(() => {
      this.measuring = false;
      this.at1 = performance.now();
      this.cpu1 = process.cpuUsage(this.cpu0);
      process.stdout.write(`${MARK}end\n`);
      this.stopping = true;
      clearTimeout(this.timer);
      if (this.inFlight === 0) this.finish();
      // the backstop: calls still in flight after their deadline are left
      setTimeout(() => this.finish(), DEADLINE_MS + 1000).unref();
    }, windowEnd - t0);
    if (o.mode === 'closed') {
      for (let i = 0; i < o.concurrency; i++) {
        const now = performance.now();
        this.issue(now, now);
      }
    } else {
      this.interval = 1000 / o.rate;
      this.startAt = t0;
      this.next = 0;
      this.windowStart = windowStart;
      this.total = Math.ceil(((WARMUP_MS + o.seconds * 1000) * o.rate) / 1000);
      this.timer = undefined;
      this.onTimer = () => {
        this.timer = undefined;
        this.pump();
      };
      this.pump();
    }
    return this.finished;
  }

  /** open loop: starts every send that is due while a slot is free, then waits for the next due time */
  pump() {
    if (this.stopping) return;
    const now = performance.now();
    while (this.next < this.total && this.inFlight < this.o.concurrency) {
      const due = this.startAt + this.next * this.interval;
      if (due > now) break;
      this.next++;
      if (due >= this.windowStart) {
        this.sends++;
        if (now - due > 1) this.lateSends++;
      }
      this.inFlight++;
      this.issue(due, now);
      // the closed loop counts in done(): inFlight-- there; the open loop's ++ is here
    }
    if (this.next < this.total && this.inFlight < this.o.concurrency && this.timer === undefined) {
      const due = this.startAt + this.next * this.interval;
      this.timer = setTimeout(this.onTimer, Math.max(0, due - performance.now()));
    }
  }

  result() {
    const windowMs = this.at1 - this.at0;
    const cpuUs = this.cpu1.user + this.cpu1.system;
    const calls = this.ok + Object.values(this.notOk).reduce((a, b) => a + b, 0);
    const pct = (h, p) => h.getValueAtPercentile(p);
    return {
      calls,
      ok: this.ok,
      notOk: Object.entries(this.notOk),
      windowMs,
      rps: this.ok / (windowMs / 1000),
      p50: pct(this.fromSend, 50),
      p90: pct(this.fromSend, 90),
      p99: pct(this.fromSend, 99),
      p50s: this.o.mode === 'open' ? pct(this.fromSched, 50) : NaN,
      p99s: this.o.mode === 'open' ? pct(this.fromSched, 99) : NaN,
      cpuPct: cpuUs / 10 / windowMs,
      cpuPerCallUs: calls > 0 ? cpuUs / calls : NaN,
      bytesPerCall: this.ok > 0 ? this.bytes / this.ok : NaN,
      lateSends: this.lateSends,
      sends: this.sends,
    };
  }
}

// ---- node:http2 ---------------------------------------------------------------------------------

/** Per-call state lives on the stream; these listeners are shared by every call (no closure per call). */
let driver;
function onResponse(headers) {
  this.pgHttp = headers[':status'];
  // a Trailers-Only answer (an error) carries grpc-status in its headers
  const s = headers['grpc-status'];
  if (s !== undefined) this.pgGrpc = s;
}
function onData(chunk) {
  this.pgBytes += chunk.length;
}
function onTrailers(trailers) {
  this.pgGrpc = trailers['grpc-status'];
}
function onTrailersEarly(trailers) {
  this.pgGrpc = trailers['grpc-status'];
  settle(this);
}
function onError() {
  // the status is decided in settle() (close): rstCode, no grpc-status
}
function onClose() {
  settle(this);
}
function settle(s) {
  if (s.pgDone) return;
  s.pgDone = true;
  let status;
  if (s.pgHttp !== 200) status = `http-${s.pgHttp ?? 'none'}`;
  else if (s.pgGrpc === '0') status = 'OK';
  else if (s.pgGrpc !== undefined) status = `grpc-${s.pgGrpc}`;
  else status = `rst-${s.rstCode}`;
  driver.done(s.pgSched, s.pgSent, status, s.pgBytes);
}

async function h2Client(o) {
  const k = o.knobs;
  const settings = k.settings ? { enablePush: false, initialWindowSize: 1 << 24, maxConcurrentStreams: 1000 } : {};
  const options = { settings };
  if (k.padding) options.paddingStrategy = http2.constants.PADDING_STRATEGY_NONE;
  const [host, port] = o.addr.split(':');
  if (k.nodelay)
    options.createConnection = () => {
      const s = net.connect(Number(port), host);
      s.setNoDelay(true);
      return s;
    };
  const sessions = [];
  for (let i = 0; i < o.conns; i++) {
    const s = http2.connect(`http://${o.addr}`, options);
    s.on('error', (e) => console.error(`session error: ${e.message}`));
    await new Promise((resolve, reject) => {
      s.once('connect', resolve);
      s.once('error', reject);
    });
    if (k.window) s.setLocalWindowSize(1 << 24);
    sessions.push(s);
  }
  const headers = {
    ':method': 'POST',
    ':scheme': 'http',
    ':path': PATH,
    ':authority': o.addr,
    'content-type': 'application/grpc',
    te: 'trailers',
    'grpc-timeout': `${DEADLINE_MS / 1000}S`,
  };
  const reqOpts = k.endStreamOpt ? { endStream: false, waitForTrailers: false } : undefined;
  const n = sessions.length;
  let rr = 0;
  const onTr = k.early ? onTrailersEarly : onTrailers;
  driver.issue = (sched, sent) => {
    if (o.mode === 'closed') driver.inFlight++;
    const session = sessions[rr];
    rr = rr + 1 === n ? 0 : rr + 1;
    const req = session.request(headers, reqOpts);
    req.pgSched = sched;
    req.pgSent = sent;
    req.pgBytes = 0;
    req.pgHttp = undefined;
    req.pgGrpc = undefined;
    req.pgDone = false;
    if (k.closures) {
      // the same work with a closure per listener per call, to see what closures cost
      req.on('response', (h) => {
        req.pgHttp = h[':status'];
        if (h['grpc-status'] !== undefined) req.pgGrpc = h['grpc-status'];
      });
      req.on('data', (c) => (req.pgBytes += c.length));
      req.on('trailers', (t) => (req.pgGrpc = t['grpc-status']));
      req.on('error', () => undefined);
      req.on('close', () => settle(req));
    } else {
      req.on('response', onResponse);
      req.on('data', onData);
      req.on('trailers', onTr);
      req.on('error', onError);
      req.on('close', onClose);
    }
    if (k.endBuf) req.end(FRAMED);
    else {
      req.write(FRAMED);
      req.end();
    }
  };
  await driver.start();
  for (const s of sessions) s.destroy();
}

// ---- raw frames: HTTP/2 by hand over net.Socket (the ceiling) -------------------------------------
// A minimal client side of RFC 9113 for unary gRPC calls to one trusted server, enough to measure
// how fast a hand-written framing layer could go: the preface and SETTINGS (push off, 1 GiB stream
// windows) and a 1 GiB connection window; per call one HEADERS frame (a request header block
// encoded once, static-table indexes and literals without indexing, so it never touches the
// server's dynamic table) and one DATA frame with END_STREAM, stream ids 1, 3, 5, …, the frames of
// one turn of the event loop written together; answers read frame by frame: DATA bytes counted,
// HEADERS (with CONTINUATION) decoded by a complete HPACK decoder (static and dynamic table, size
// updates, Huffman; tables from RFC 7541 appendices A and B, as Go's hpack has them), a call ends at
// the HEADERS with END_STREAM (its trailers) or at RST_STREAM; SETTINGS acknowledged, PINGs
// answered (grpc-go sends BDP pings), GOAWAY ends the connection, the connection send window kept
// (WINDOW_UPDATE), the receive window topped up. No TLS, no priorities, no server push, no
// per-stream send window (one 47-byte request never nears the 64 KiB initial window).
const HUFFMAN_CODES = [
  8184, 8388568, 268435426, 268435427, 268435428, 268435429, 268435430, 268435431, 268435432, 16777194, 1073741820,
  268435433, 268435434, 1073741821, 268435435, 268435436, 268435437, 268435438, 268435439, 268435440, 268435441,
  268435442, 1073741822, 268435443, 268435444, 268435445, 268435446, 268435447, 268435448, 268435449, 268435450,
  268435451, 20, 1016, 1017, 4090, 8185, 21, 248, 2042, 1018, 1019, 249, 2043, 250, 22, 23, 24, 0, 1, 2, 25, 26, 27, 28,
  29, 30, 31, 92, 251, 32764, 32, 4091, 1020, 8186, 33, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106,
  107, 108, 109, 110, 111, 112, 113, 114, 252, 115, 253, 8187, 524272, 8188, 16380, 34, 32765, 3, 35, 4, 36, 5, 37, 38,
  39, 6, 116, 117, 40, 41, 42, 7, 43, 118, 44, 8, 9, 45, 119, 120, 121, 122, 123, 32766, 2044, 16381, 8189, 268435452,
  1048550, 4194258, 1048551, 1048552, 4194259, 4194260, 4194261, 8388569, 4194262, 8388570, 8388571, 8388572, 8388573,
  8388574, 16777195, 8388575, 16777196, 16777197, 4194263, 8388576, 16777198, 8388577, 8388578, 8388579, 8388580,
  2097116, 4194264, 8388581, 4194265, 8388582, 8388583, 16777199, 4194266, 2097117, 1048553, 4194267, 4194268, 8388584,
  8388585, 2097118, 8388586, 4194269, 4194270, 16777200, 2097119, 4194271, 8388587, 8388588, 2097120, 2097121, 4194272,
  2097122, 8388589, 4194273, 8388590, 8388591, 1048554, 4194274, 4194275, 4194276, 8388592, 4194277, 4194278, 8388593,
  67108832, 67108833, 1048555, 524273, 4194279, 8388594, 4194280, 33554412, 67108834, 67108835, 67108836, 134217694,
  134217695, 67108837, 16777201, 33554413, 524274, 2097123, 67108838, 134217696, 134217697, 67108839, 134217698,
  16777202, 2097124, 2097125, 67108840, 67108841, 268435453, 134217699, 134217700, 134217701, 1048556, 16777203,
  1048557, 2097126, 4194281, 2097127, 2097128, 8388595, 4194282, 4194283, 33554414, 33554415, 16777204, 16777205,
  67108842, 8388596, 67108843, 134217702, 67108844, 67108845, 134217703, 134217704, 134217705, 134217706, 134217707,
  268435454, 134217708, 134217709, 134217710, 134217711, 134217712, 67108846,
];
const HUFFMAN_LENGTHS = [
  13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28,
  28, 28, 28, 6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,
  13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6, 15, 5, 6, 5, 6,
  5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5, 6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28, 20, 22, 20, 20, 22, 22, 22, 23,
  22, 23, 23, 23, 23, 23, 24, 23, 24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24, 22, 21, 20, 22, 22,
  23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23, 21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23, 26, 26,
  20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25, 19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27,
  27, 20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23, 26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27,
  27, 27, 27, 26,
];
const HPACK_STATIC = [
  [':authority', ''],
  [':method', 'GET'],
  [':method', 'POST'],
  [':path', '/'],
  [':path', '/index.html'],
  [':scheme', 'http'],
  [':scheme', 'https'],
  [':status', '200'],
  [':status', '204'],
  [':status', '206'],
  [':status', '304'],
  [':status', '400'],
  [':status', '404'],
  [':status', '500'],
  ['accept-charset', ''],
  ['accept-encoding', 'gzip, deflate'],
  ['accept-language', ''],
  ['accept-ranges', ''],
  ['accept', ''],
  ['access-control-allow-origin', ''],
  ['age', ''],
  ['allow', ''],
  ['authorization', ''],
  ['cache-control', ''],
  ['content-disposition', ''],
  ['content-encoding', ''],
  ['content-language', ''],
  ['content-length', ''],
  ['content-location', ''],
  ['content-range', ''],
  ['content-type', ''],
  ['cookie', ''],
  ['date', ''],
  ['etag', ''],
  ['expect', ''],
  ['expires', ''],
  ['from', ''],
  ['host', ''],
  ['if-match', ''],
  ['if-modified-since', ''],
  ['if-none-match', ''],
  ['if-range', ''],
  ['if-unmodified-since', ''],
  ['last-modified', ''],
  ['link', ''],
  ['location', ''],
  ['max-forwards', ''],
  ['proxy-authenticate', ''],
  ['proxy-authorization', ''],
  ['range', ''],
  ['referer', ''],
  ['refresh', ''],
  ['retry-after', ''],
  ['server', ''],
  ['set-cookie', ''],
  ['strict-transport-security', ''],
  ['transfer-encoding', ''],
  ['user-agent', ''],
  ['vary', ''],
  ['via', ''],
  ['www-authenticate', ''],
];

/** Huffman decoding table: by code length, code → symbol */
const HUFFMAN_BY_LENGTH = (() => {
  const byLength = Array.from({ length: 31 }, () => new Map());
  for (let sym = 0; sym < 256; sym++) byLength[HUFFMAN_LENGTHS[sym]].set(HUFFMAN_CODES[sym], sym);
  return byLength;
})();

function huffmanDecode(buf, start, end) {
  const out = [];
  let code = 0;
  let bits = 0;
  for (let i = start; i < end; i++) {
    for (let b = 7; b >= 0; b--) {
      code = (code << 1) | ((buf[i] >> b) & 1);
      bits++;
      const sym = HUFFMAN_BY_LENGTH[bits]?.get(code);
      if (sym !== undefined) {
        out.push(sym);
        code = 0;
        bits = 0;
      } else if (bits > 30) throw new Error('hpack: bad Huffman code');
    }
  }
  // the padding: at most 7 bits, all ones (the EOS code's first bits)
  if (bits > 7 || code !== (1 << bits) - 1) throw new Error('hpack: bad Huffman padding');
  return Buffer.from(out).toString('latin1');
}

class HpackDecoder {
  constructor() {
    this.table = []; // newest first: [name, value]
    this.size = 0;
    this.max = 4096;
    this.p = 0;
  }
  int(buf, prefixBits) {
    const mask = (1 << prefixBits) - 1;
    let v = buf[this.p++] & mask;
    if (v < mask) return v;
    let m = 0;
    let b;
    do {
      b = buf[this.p++];
      v += (b & 0x7f) * 2 ** m;
      m += 7;
    } while (b & 0x80);
    return v;
  }
  str(buf) {
    const huff = buf[this.p] & 0x80;
    const len = this.int(buf, 7);
    const s = huff ? huffmanDecode(buf, this.p, this.p + len) : buf.toString('latin1', this.p, this.p + len);
    this.p += len;
    return s;
  }
  entry(i) {
    const e = i <= 61 ? HPACK_STATIC[i - 1] : this.table[i - 62];
    if (!e || i === 0) throw new Error(`hpack: no entry ${i}`);
    return e;
  }
  evict() {
    while (this.size > this.max) {
      const [n, v] = this.table.pop();
      this.size -= n.length + v.length + 32;
    }
  }
  /** Decodes a header block; `field(name, value)` for each field, in order. */
  decode(buf, field) {
    this.p = 0;
    while (this.p < buf.length) {
      const b = buf[this.p];
      if (b & 0x80) {
        const [n, v] = this.entry(this.int(buf, 7));
        field(n, v);
      } else if ((b & 0xc0) === 0x40) {
        const i = this.int(buf, 6);
        const n = i ? this.entry(i)[0] : this.str(buf);
        const v = this.str(buf);
        field(n, v);
        this.table.unshift([n, v]);
        this.size += n.length + v.length + 32;
        this.evict();
      } else if ((b & 0xe0) === 0x20) {
        this.max = this.int(buf, 5);
        this.evict();
      } else {
        const i = this.int(buf, 4);
        const n = i ? this.entry(i)[0] : this.str(buf);
        field(n, this.str(buf));
      }
    }
  }
}

/** HPACK integer with a prefix of `bits`, the first byte's high bits from `first` */
function hpackInt(first, bits, v) {
  const mask = (1 << bits) - 1;
  if (v < mask) return [first | v];
  const out = [first | mask];
  v -= mask;
  while (v >= 128) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}
/** a literal field without indexing (0000 prefix), by static name index or new name; plain strings */
function hpackLiteral(nameIndex, name, value) {
  const s = (x) => [...hpackInt(0, 7, Buffer.byteLength(x)), ...Buffer.from(x, 'latin1')];
  return nameIndex ? [...hpackInt(0, 4, nameIndex), ...s(value)] : [0, ...s(name), ...s(value)];
}

const FRAME_DATA = 0;
const FRAME_HEADERS = 1;
const FRAME_RST_STREAM = 3;
const FRAME_SETTINGS = 4;
const FRAME_PING = 6;
const FRAME_GOAWAY = 7;
const FRAME_WINDOW_UPDATE = 8;
const FRAME_CONTINUATION = 9;
const FLAG_END_STREAM = 0x1;
const FLAG_ACK = 0x1;
const FLAG_END_HEADERS = 0x4;
const FLAG_PADDED = 0x8;
const FLAG_PRIORITY = 0x20;
const BIG_WINDOW = 1 << 30;

function frame(type, flags, stream, payload = Buffer.alloc(0)) {
  const f = Buffer.alloc(9 + payload.length);
  f.writeUIntBE(payload.length, 0, 3);
  f[3] = type;
  f[4] = flags;
  f.writeUInt32BE(stream, 5);
  payload.copy(f, 9);
  return f;
}

class RawConnection {
  constructor(addr) {
    this.addr = addr;
    const block = Buffer.from([
      0x83, // :method POST (static 3)
      0x86, // :scheme http (static 6)
      ...hpackLiteral(4, '', PATH), // :path
      ...hpackLiteral(1, '', addr), // :authority
      ...hpackLiteral(31, '', 'application/grpc'), // content-type
      ...hpackLiteral(0, 'te', 'trailers'),
      ...hpackLiteral(0, 'grpc-timeout', `${DEADLINE_MS / 1000}S`),
    ]);
    // HEADERS (END_HEADERS) + DATA (END_STREAM), stream ids written per call at 5 and headersEnd + 5
    this.template = Buffer.concat([
      frame(FRAME_HEADERS, FLAG_END_HEADERS, 0, block),
      frame(FRAME_DATA, FLAG_END_STREAM, 0, FRAMED),
    ]);
    this.dataAt = 9 + block.length;
    this.nextId = 1;
    this.calls = new Map();
    this.hpack = new HpackDecoder();
    this.sendWindow = 65535;
    this.recvUnacked = 0;
    this.out = [];
    this.flushing = false;
    this.waiting = []; // calls held for the connection send window
    this.rest = undefined;
    this.continuation = undefined;
    this.closed = false;
    this.flush = () => {
      this.flushing = false;
      if (this.out.length === 0 || this.closed) return;
      this.socket.write(this.out.length === 1 ? this.out[0] : Buffer.concat(this.out));
      this.out = [];
    };
    this.onField = (n, v) => {
      const c = this.current;
      if (!c) return;
      if (n === ':status') c.http = v;
      else if (n === 'grpc-status') c.grpc = v;
    };
  }

  connect() {
    const [host, port] = this.addr.split(':');
    return new Promise((resolve, reject) => {
      this.ready = resolve;
      this.socket = net.connect(Number(port), host);
      this.socket.setNoDelay(true);
      this.socket.once('error', reject);
      this.socket.on('error', (e) => console.error(`raw: ${e.message}`));
      this.socket.on('close', () => this.fail('closed'));
      this.socket.on('data', (d) => this.read(d));
      const settings = Buffer.alloc(12);
      settings.writeUInt16BE(0x2, 0); // ENABLE_PUSH 0
      settings.writeUInt32BE(0, 2);
      settings.writeUInt16BE(0x4, 6); // INITIAL_WINDOW_SIZE
      settings.writeUInt32BE(BIG_WINDOW, 8);
      const wu = Buffer.alloc(4);
      wu.writeUInt32BE(BIG_WINDOW - 65535, 0);
      this.socket.write(
        Buffer.concat([
          Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1'),
          frame(FRAME_SETTINGS, 0, 0, settings),
          frame(FRAME_WINDOW_UPDATE, 0, 0, wu),
        ]),
      );
    });
  }

  write(buf) {
    this.out.push(buf);
    if (!this.flushing) {
      this.flushing = true;
      process.nextTick(this.flush);
    }
  }

  /** Starts a call; `c` is its state ({ sched, sent, bytes, http, grpc }). */
  call(c) {
    if (this.closed) return this.end(c, 'goaway');
    if (this.sendWindow < FRAMED.length) {
      this.waiting.push(c);
      return;
    }
    this.sendWindow -= FRAMED.length;
    const id = this.nextId;
    this.nextId += 2;
    const f = Buffer.allocUnsafe(this.template.length);
    this.template.copy(f);
    f.writeUInt32BE(id, 5);
    f.writeUInt32BE(id, this.dataAt + 5);
    this.calls.set(id, c);
    this.write(f);
  }

  end(c, status) {
    driver.done(c.sched, c.sent, status, c.bytes);
  }

  settle(id, rst) {
    const c = this.calls.get(id);
    if (!c) return;
    this.calls.delete(id);
    let status;
    if (rst !== undefined) status = `rst-${rst}`;
    else if (c.http !== '200') status = `http-${c.http ?? 'none'}`;
    else if (c.grpc === '0') status = 'OK';
    else status = c.grpc !== undefined ? `grpc-${c.grpc}` : 'no-grpc-status';
    this.end(c, status);
  }

  headerBlock(id, block, endStream) {
    this.current = this.calls.get(id);
    this.hpack.decode(block, this.onField);
    this.current = undefined;
    if (endStream) this.settle(id);
  }

  read(d) {
    let buf = this.rest ? Buffer.concat([this.rest, d]) : d;
    let p = 0;
    while (buf.length - p >= 9) {
      const len = buf.readUIntBE(p, 3);
      if (buf.length - p < 9 + len) break;
      const type = buf[p + 3];
      const flags = buf[p + 4];
      const id = buf.readUInt32BE(p + 5) & 0x7fffffff;
      const s = p + 9;
      const e = s + len;
      p = e;
      if (this.continuation && type !== FRAME_CONTINUATION) throw new Error('h2: expected CONTINUATION');
      switch (type) {
        case FRAME_DATA: {
          const c = this.calls.get(id);
          if (c) c.bytes += len - (flags & FLAG_PADDED ? 1 + buf[s] : 0);
          this.recvUnacked += len;
          if (this.recvUnacked > BIG_WINDOW / 4) {
            const wu = Buffer.alloc(4);
            wu.writeUInt32BE(this.recvUnacked, 0);
            this.write(frame(FRAME_WINDOW_UPDATE, 0, 0, wu));
            this.recvUnacked = 0;
          }
          if (flags & FLAG_END_STREAM) this.settle(id);
          break;
        }
        case FRAME_HEADERS: {
          let bs = s;
          let be = e;
          if (flags & FLAG_PADDED) {
            be -= buf[bs];
            bs++;
          }
          if (flags & FLAG_PRIORITY) bs += 5;
          const block = buf.subarray(bs, be);
          if (flags & FLAG_END_HEADERS) this.headerBlock(id, block, flags & FLAG_END_STREAM);
          else this.continuation = { id, parts: [Buffer.from(block)], endStream: flags & FLAG_END_STREAM };
          break;
        }
        case FRAME_CONTINUATION: {
          const k = this.continuation;
          if (!k || k.id !== id) throw new Error('h2: unexpected CONTINUATION');
          k.parts.push(Buffer.from(buf.subarray(s, e)));
          if (flags & FLAG_END_HEADERS) {
            this.continuation = undefined;
            this.headerBlock(id, Buffer.concat(k.parts), k.endStream);
          }
          break;
        }
        case FRAME_RST_STREAM:
          this.settle(id, buf.readUInt32BE(s));
          break;
        case FRAME_SETTINGS:
          if (!(flags & FLAG_ACK)) {
            this.write(frame(FRAME_SETTINGS, FLAG_ACK, 0));
            this.ready?.();
            this.ready = undefined;
          }
          break;
        case FRAME_PING:
          if (!(flags & FLAG_ACK)) this.write(frame(FRAME_PING, FLAG_ACK, 0, Buffer.from(buf.subarray(s, e))));
          break;
        case FRAME_GOAWAY:
          console.error(`raw: GOAWAY error ${buf.readUInt32BE(s + 4)}`);
          this.fail('goaway');
          break;
        case FRAME_WINDOW_UPDATE:
          if (id === 0) {
            this.sendWindow += buf.readUInt32BE(s) & 0x7fffffff;
            while (this.waiting.length && this.sendWindow >= FRAMED.length) this.call(this.waiting.shift());
          }
          break;
        default: // PRIORITY, PUSH_PROMISE (push is off), unknown: ignored
      }
    }
    this.rest = p < buf.length ? buf.subarray(p) : undefined;
  }

  /** The connection is gone: every call still on it fails. */
  fail(why) {
    if (this.closed) return;
    this.closed = true;
    const calls = [...this.calls.values(), ...this.waiting];
    this.calls.clear();
    this.waiting = [];
    for (const c of calls) this.end(c, why);
  }

  close() {
    this.closed = true;
    this.socket.destroy();
  }
}

async function rawClient(o) {
  const conns = [];
  for (let i = 0; i < o.conns; i++) {
    const c = new RawConnection(o.addr);
    await c.connect();
    conns.push(c);
  }
  let rr = 0;
  driver.issue = (sched, sent) => {
    if (o.mode === 'closed') driver.inFlight++;
    const c = conns[rr];
    rr = rr + 1 === conns.length ? 0 : rr + 1;
    c.call({ sched, sent, bytes: 0, http: undefined, grpc: undefined });
  };
  await driver.start();
  for (const c of conns) c.close();
}

// ---- a plain @grpc/grpc-js loop -------------------------------------------------------------------

async function grpcJsClient(o) {
  const clients = [];
  for (let i = 0; i < o.conns; i++) {
    const c = new grpc.Client(o.addr, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
    await new Promise((resolve, reject) => c.waitForReady(Date.now() + 5000, (e) => (e ? reject(e) : resolve())));
    clients.push(c);
  }
  const names = Object.fromEntries(
    Object.entries(grpc.status)
      .filter(([, v]) => typeof v === 'number')
      .map(([k, v]) => [v, k]),
  );
  const md = new grpc.Metadata();
  const id = (b) => b;
  let rr = 0;
  driver.issue = (sched, sent) => {
    if (o.mode === 'closed') driver.inFlight++;
    const c = clients[rr++ % clients.length];
    c.makeUnaryRequest(PATH, id, id, REQUEST, md, { deadline: Date.now() + DEADLINE_MS }, (err, res) =>
      driver.done(sched, sent, err ? (names[err.code] ?? `status-${err.code}`) : 'OK', res?.length ?? 0),
    );
  };
  await driver.start();
  for (const c of clients) c.close();
}

async function clientMain(o) {
  // a hard bound on the child, whatever happens
  setTimeout(
    () => {
      console.error('client: hard timeout');
      process.exit(3);
    },
    (WARMUP_MS + o.seconds * 1000 + DEADLINE_MS + 20_000) | 0,
  ).unref();
  driver = new Driver(o);
  if (o.kind === 'h2') await h2Client(o);
  else if (o.kind === 'raw') await rawClient(o);
  else await grpcJsClient(o);
  process.stdout.write(`${MARK}result ${JSON.stringify(driver.result())}\n`);
  process.exit(0);
}

// =============================================================================================
// the orchestration (parent)

/**
 * The variants. h2 knobs: endBuf (the body and END_STREAM in one req.end(buf), not write + end),
 * early (a call completes at its trailers, not at the stream's close), window (setLocalWindowSize
 * 16 MiB), settings (enablePush off, a 16 MiB initial window), padding (PADDING_STRATEGY_NONE set
 * explicitly), nodelay (TCP_NODELAY on the socket), endStreamOpt (request options { endStream:
 * false, waitForTrailers: false } passed explicitly), closures (listeners as per-call closures).
 */
/** the knobs that were harmless or looked helpful in a first exploratory round, together */
const TUNED = { endBuf: true, early: true, window: true, settings: true };
const CLOSED = [
  { id: 'ghz', tool: 'ghz', conns: 1 },
  { id: 'perf-gate', tool: 'perf-gate', conns: 1 },
  { id: 'grpc-js loop', tool: 'grpcjs', conns: 1 },
  { id: 'h2 write+end', tool: 'h2', conns: 1, knobs: {} },
  { id: 'h2 end(buf)', tool: 'h2', conns: 1, knobs: { endBuf: true } },
  { id: 'h2 end(buf) closures', tool: 'h2', conns: 1, knobs: { endBuf: true, closures: true } },
  { id: 'h2 end(buf) early', tool: 'h2', conns: 1, knobs: { endBuf: true, early: true } },
  { id: 'h2 end(buf) window+settings', tool: 'h2', conns: 1, knobs: { endBuf: true, window: true, settings: true } },
  { id: 'h2 end(buf) nodelay', tool: 'h2', conns: 1, knobs: { endBuf: true, nodelay: true } },
  { id: 'h2 end(buf) padding+opts', tool: 'h2', conns: 1, knobs: { endBuf: true, padding: true, endStreamOpt: true } },
  { id: 'h2 end(buf) 2 conns', tool: 'h2', conns: 2, knobs: { endBuf: true } },
  { id: 'h2 end(buf) 4 conns', tool: 'h2', conns: 4, knobs: { endBuf: true } },
  { id: 'h2 tuned', tool: 'h2', conns: 1, knobs: TUNED },
  { id: 'h2 tuned 2 conns', tool: 'h2', conns: 2, knobs: TUNED },
  { id: 'raw frames', tool: 'raw', conns: 1 },
  { id: 'raw frames 2 conns', tool: 'raw', conns: 2 },
];
const OPEN = [
  { id: 'ghz', tool: 'ghz', conns: 1 },
  { id: 'perf-gate', tool: 'perf-gate', conns: 1 },
  { id: 'grpc-js loop', tool: 'grpcjs', conns: 1 },
  { id: 'h2 end(buf)', tool: 'h2', conns: 1, knobs: { endBuf: true } },
  { id: 'h2 end(buf) nodelay', tool: 'h2', conns: 1, knobs: { endBuf: true, nodelay: true } },
  { id: 'h2 end(buf) early', tool: 'h2', conns: 1, knobs: { endBuf: true, early: true } },
  { id: 'h2 tuned', tool: 'h2', conns: 1, knobs: TUNED },
  { id: 'raw frames', tool: 'raw', conns: 1 },
];

async function main() {
  const seconds = Number(process.argv[2] ?? 5);
  const rounds = Number(process.argv[3] ?? 3);
  const concurrency = Number(process.argv[4] ?? 32);
  const only = process.env.BENCH_H2_ONLY?.split(',').map((s) => s.trim());
  const pick = (vs) => (only ? vs.filter((v) => only.includes(v.id)) : vs);
  const closedVariants = pick(CLOSED);
  const openVariants = pick(OPEN);
  const hardTimeoutMs = (seconds * 4 + 30) * 1000;

  const findGhz = () => {
    const onPath = spawnSync('sh', ['-c', 'command -v ghz'], { encoding: 'utf8' }).stdout.trim();
    if (onPath) return onPath;
    const gopath = spawnSync('go', ['env', 'GOPATH'], { encoding: 'utf8' }).stdout?.trim();
    const f = gopath ? join(gopath, 'bin/ghz') : '';
    return f && existsSync(f) ? f : '';
  };
  const GHZ = findGhz();
  for (const [what, f, fix] of [
    ['ghz', GHZ, 'go install github.com/bojand/ghz/cmd/ghz@v0.120.0'],
    ['the gRPC service', SERVER, 'cd fixtures/grpc-search && CGO_ENABLED=0 go build -trimpath -o bin/server .'],
    ['dist/runner.mjs', RUNNER, 'npm run build'],
  ]) {
    if (!f || !existsSync(f)) {
      console.error(`bench: ${what} is missing: ${fix}`);
      process.exit(2);
    }
  }
  const ghzVersion =
    /\bmod\s+github\.com\/bojand\/ghz\s+(\S+)/.exec(
      spawnSync('go', ['version', '-m', GHZ], { encoding: 'utf8' }).stdout ?? '',
    )?.[1] ?? 'unknown version';
  const RUNNER_COPY = join(mkdtempSync(join(tmpdir(), 'perf-gate-bench-h2-')), 'runner.mjs');
  copyFileSync(RUNNER, RUNNER_COPY);
  const runnerBuilt = statSync(RUNNER).mtime.toISOString().slice(0, 16).replace('T', ' ');
  const grpcJsVersion = JSON.parse(readFileSync(join(ROOT, 'node_modules/@grpc/grpc-js/package.json'), 'utf8')).version;

  // ---- CPU accounting from /proc
  const machineTicks = () => {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, , , irq, softirq, steal] = f;
    return { busy: user + nice + system + irq + softirq + steal, total: f.slice(0, 8).reduce((a, b) => a + b, 0) };
  };
  const procCpuUs = (pid) => {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) * 10_000;
  };
  let server;
  const snap = () => ({ at: performance.now(), server: procCpuUs(server.pid), m: machineTicks() });
  const windowUse = (a, b, toolPct) => {
    if (!a || !b) return { serverPct: NaN, otherPct: NaN };
    const ms = b.at - a.at;
    const serverPct = (b.server - a.server) / 10 / ms;
    const busyPct = ((b.m.busy - a.m.busy) / (b.m.total - a.m.total)) * cpus().length * 100;
    return { serverPct, otherPct: Math.max(0, busyPct - serverPct - toolPct) };
  };

  // ---- the service
  const startServer = async (port) => {
    const child = spawn('taskset', ['-c', TARGET_CORE, SERVER], {
      env: { ...process.env, GOMAXPROCS: '1', LISTEN: `127.0.0.1:${port}`, BURN: '0' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    child.stderr.setEncoding('utf8').on('data', (d) => (log += d));
    const addr = `127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`grpc-search exited: ${log}`);
      if (spawnSync(SERVER, ['-health', addr], { timeout: 3000 }).status === 0) break;
      if (i >= 50) {
        child.kill('SIGKILL');
        throw new Error(`grpc-search on ${addr} did not answer: ${log}`);
      }
      await sleep(100);
    }
    return { addr, pid: child.pid, stop: () => child.kill('SIGKILL') };
  };

  /** A command pinned to the generator core, with a hard timeout; `onData` sees stdout. */
  const bounded = (cmd, args, { env, onData } = {}) =>
    new Promise((resolve, reject) => {
      const child = spawn('taskset', ['-c', GENERATOR_CORE, cmd, ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: env ?? process.env,
      });
      const at = performance.now();
      let out = '';
      let err = '';
      const timer = setTimeout(() => child.kill('SIGKILL'), hardTimeoutMs);
      child.stdout.setEncoding('utf8').on('data', (d) => {
        out += d;
        onData?.(d);
      });
      child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        if (code === 0) resolve({ out, err, wallMs: performance.now() - at });
        else reject(new Error(`${cmd} exited ${code}: ${err.slice(-2000)}`));
      });
    });

  const ghz = async ({ rps = 0, secs = seconds } = {}) => {
    const args = [
      '--insecure',
      '--proto',
      PROTO,
      '--call',
      'vectordb.VectorDB.Search',
      '-d',
      JSON.stringify(MESSAGE),
      '--connections=1',
      `--concurrency=${concurrency}`,
      `--duration=${secs}s`,
      '--duration-stop=ignore',
      `--timeout=${DEADLINE_MS / 1000}s`,
      '--format=json',
      ...(rps > 0 ? [`--rps=${rps}`] : []),
      server.addr,
    ];
    const script = '"$0" "$@"; rc=$?; cat /proc/$$/stat >&2; exit $rc';
    const a = snap();
    const { out, err, wallMs } = await bounded('sh', ['-c', script, GHZ, ...args], {
      env: { ...process.env, GOMAXPROCS: '1' },
    });
    const b = snap();
    const stat = err.trim().split('\n').pop().split(') ')[1].split(' ');
    const cpuUs = (Number(stat[13]) + Number(stat[14])) * 10_000;
    const j = JSON.parse(out);
    const ok = j.statusCodeDistribution?.OK ?? 0;
    const pct = (p) => (j.latencyDistribution?.find((d) => d.percentage === p)?.latency ?? NaN) / 1000;
    const cpuPct = cpuUs / 10 / wallMs;
    return {
      calls: j.count,
      ok,
      notOk: Object.entries(j.statusCodeDistribution ?? {}).filter(([k]) => k !== 'OK'),
      rps: ok / (j.total / 1e9),
      p50: pct(50),
      p90: pct(90),
      p99: pct(99),
      p50s: NaN,
      p99s: NaN,
      cpuPct,
      cpuPerCallUs: j.count > 0 ? cpuUs / j.count : NaN,
      ...windowUse(a, b, cpuPct),
      bound: [],
    };
  };

  const perfGate = async (phase) => {
    const dir = mkdtempSync(join(tmpdir(), 'perf-gate-bench-h2-'));
    const url = `grpc://${server.addr}`;
    const plan = {
      version: 1,
      progressIntervalMs: 60_000,
      requestTimeoutMs: DEADLINE_MS,
      workers: 1,
      ready: [],
      scenarios: [
        {
          name: 'bench',
          target: {
            kind: 'grpc',
            grpc: {
              url,
              service: 'vectordb.VectorDB',
              method: 'Search',
              path: PATH,
              messages: [REQUEST.toString('base64')],
              metadata: {},
              channels: 1,
              deadlineMs: DEADLINE_MS,
            },
          },
          warmupMs: WARMUP_MS,
          trials: 1,
          phases: [phase],
        },
      ],
    };
    writeFileSync(join(dir, 'plan.json'), JSON.stringify(plan));
    let a;
    let b;
    const { out } = await bounded(process.execPath, [RUNNER_COPY, join(dir, 'plan.json'), '--all'], {
      onData: (d) => {
        if (!a && d.includes('"stage":"measure"')) a = snap();
        if (a && !b && d.includes('"t":"trial"')) b = snap();
      },
    });
    const m = trialEvent(out).measurement;
    const g = m.generator;
    const ok = m.statusCodes?.OK ?? 0;
    return {
      calls: m.responses,
      ok,
      notOk: [...Object.entries(m.statusCodes ?? {}).filter(([k]) => k !== 'OK'), ...Object.entries(m.errors ?? {})],
      rps: ok / (m.durationMs / 1000),
      p50: m.latency.p50,
      p90: m.latency.p90,
      p99: m.latency.p99,
      p50s: NaN,
      p99s: NaN,
      cpuPct: g.cpuPct,
      cpuPerCallUs: m.responses > 0 ? ((g.cpuPct / 100) * m.durationMs * 1000) / m.responses : NaN,
      ...windowUse(a, b, g.cpuPct),
      bound: generatorBoundReasons(m),
    };
  };

  const ownClient = async (v, mode) => {
    const o = {
      kind: v.tool,
      mode,
      addr: server.addr,
      conns: v.conns,
      concurrency,
      seconds,
      rate: RATE,
      knobs: v.knobs ?? {},
    };
    let a;
    let b;
    const { out } = await bounded(process.execPath, [SELF, '--client', JSON.stringify(o)], {
      onData: (d) => {
        if (!a && d.includes(`${MARK}measure`)) a = snap();
        if (a && !b && d.includes(`${MARK}end`)) b = snap();
      },
    });
    const line = out.split('\n').find((l) => l.startsWith(`${MARK}result `));
    if (!line) throw new Error(`client ${v.id} gave no result:\n${out.slice(-2000)}`);
    const r = JSON.parse(line.slice(`${MARK}result `.length));
    return { ...r, ...windowUse(a, b, r.cpuPct), bound: [] };
  };

  const runOne = (v, mode) => {
    if (v.tool === 'ghz') return ghz(mode === 'open' ? { rps: RATE } : {});
    if (v.tool === 'perf-gate')
      return perfGate(
        mode === 'open'
          ? { kind: 'open', name: `r${RATE}`, rate: RATE, durationMs: seconds * 1000, maxInFlight: concurrency }
          : { kind: 'closed', name: `c${concurrency}`, connections: concurrency, durationMs: seconds * 1000 },
      );
    return ownClient(v, mode);
  };

  const n0 = (v) => (Number.isFinite(v) ? v.toFixed(0) : '—');
  const errText = (x) => x.notOk.map(([k, n]) => `${k} ×${n}`).join(', ');
  const logLine = (mode, v, x) =>
    console.log(
      `  ${mode} ${v.id.padEnd(28)}: ${x.rps.toFixed(0)} calls/s OK (${x.calls} calls), p50 ${fmtUs(x.p50)}, ` +
        `p99 ${fmtUs(x.p99)}` +
        (Number.isFinite(x.p50s) ? ` (from schedule p50 ${fmtUs(x.p50s)}, p99 ${fmtUs(x.p99s)})` : '') +
        `, CPU ${n0(x.cpuPct)}% (${n0(x.cpuPerCallUs)} µs/call), service ${n0(x.serverPct)}%, other ${n0(x.otherPct)}%` +
        (x.lateSends ? `, ${x.lateSends} of ${x.sends} sends > 1 ms late` : '') +
        (x.bound.length ? `, generator-bound (${x.bound.join(', ')})` : '') +
        (errText(x) ? `, not OK: ${errText(x)}` : ''),
    );

  printMachine();
  console.log(
    `## k. node:http2 evaluation (issue 22 step 1): ghz ${ghzVersion}, @grpc/grpc-js ${grpcJsVersion}, ` +
      `dist/runner.mjs built ${runnerBuilt} UTC; ${seconds} s windows, ${rounds} rounds, ${concurrency} in flight; ` +
      `started ${new Date().toISOString()}\n`,
  );
  console.log(`request: ${FRAMED.length} bytes framed (${REQUEST.length} protobuf)\n`);

  server = await startServer(PORT);
  const results = { closed: new Map(), open: new Map() };
  for (const v of closedVariants) results.closed.set(v.id, []);
  for (const v of openVariants) results.open.set(v.id, []);
  try {
    await ghz({ secs: 2 }); // the service's warm-up
    for (let r = 0; r < rounds; r++) {
      const flip = (vs) => (r % 2 === 0 ? vs : [...vs].reverse());
      console.log(
        `round ${r + 1} (load average ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')})`,
      );
      for (const v of flip(closedVariants)) {
        const x = await runOne(v, 'closed');
        results.closed.get(v.id).push(x);
        logLine(`closed c${concurrency}`, v, x);
      }
      for (const v of flip(openVariants)) {
        const x = await runOne(v, 'open');
        results.open.get(v.id).push(x);
        logLine(`${RATE}/s     `, v, x);
      }
    }
  } finally {
    server.stop();
  }
  console.log(`finished ${new Date().toISOString()}\n`);

  const range = (xs, f = (v) => v.toFixed(2)) => {
    const v = xs.filter(Number.isFinite).sort((p, q) => p - q);
    return v.length ? `${f(v[0])}–${f(v[v.length - 1])}` : '—';
  };
  const withRange = (xs, f) => `${f(median(xs))} (${range(xs, f)})`;
  const med = (xs, k) => median(xs.map((x) => x[k]));
  const byRound = (mode, id, k) => {
    const g = results[mode].get('ghz');
    const xs = results[mode].get(id);
    return g ? xs.map((x, i) => x[k] / g[i]?.[k]) : [];
  };
  const ratioCell = (mode, id, k) => {
    const rs = byRound(mode, id, k);
    const g = results[mode].get('ghz');
    if (!g) return '—';
    return `${(med(results[mode].get(id), k) / med(g, k)).toFixed(2)}; ${median(rs).toFixed(2)} (${range(rs)})`;
  };
  const notOk = (xs) => String(xs.reduce((s, y) => s + y.notOk.reduce((t, [, n]) => t + n, 0), 0));
  const pctf = (v) => `${v.toFixed(0)}%`;

  console.log(`1. closed loop, ${concurrency} calls in flight, ${seconds} s (medians over ${rounds} rounds, ranges)\n`);
  table(
    [
      'client',
      'conns',
      'calls/s OK (range)',
      '÷ ghz: medians; by round (range)',
      'p50',
      'p99',
      'client CPU',
      'CPU µs/call',
      'service CPU',
      'other',
      'not OK',
    ],
    closedVariants.map((v) => {
      const xs = results.closed.get(v.id);
      return [
        v.id,
        String(v.conns),
        withRange(
          xs.map((x) => x.rps),
          (q) => q.toFixed(0),
        ),
        v.tool === 'ghz' ? '1' : ratioCell('closed', v.id, 'rps'),
        fmtUs(med(xs, 'p50')),
        fmtUs(med(xs, 'p99')),
        pctf(med(xs, 'cpuPct')),
        n0(med(xs, 'cpuPerCallUs')),
        pctf(med(xs, 'serverPct')),
        pctf(med(xs, 'otherPct')),
        notOk(xs),
      ];
    }),
  );

  console.log(
    `2. open loop at ${RATE} calls/s, at most ${concurrency} in flight, ${seconds} s; p50/p99 from the call's start ` +
      `(as ghz and perf-gate report), "sched" from its scheduled send time (this script's clients)\n`,
  );
  table(
    [
      'client',
      'achieved calls/s',
      'p50 (range)',
      'p50 ÷ ghz: medians; by round (range)',
      'p99',
      'p50 sched',
      'p99 sched',
      'client CPU',
      'CPU µs/call',
      'service CPU',
      'other',
      'not OK',
    ],
    openVariants.map((v) => {
      const xs = results.open.get(v.id);
      return [
        v.id,
        n0(med(xs, 'rps')),
        withRange(
          xs.map((x) => x.p50),
          fmtUs,
        ),
        v.tool === 'ghz' ? '1' : ratioCell('open', v.id, 'p50'),
        fmtUs(med(xs, 'p99')),
        fmtUs(med(xs, 'p50s')),
        fmtUs(med(xs, 'p99s')),
        pctf(med(xs, 'cpuPct')),
        n0(med(xs, 'cpuPerCallUs')),
        pctf(med(xs, 'serverPct')),
        pctf(med(xs, 'otherPct')),
        notOk(xs),
      ];
    }),
  );
  const late = [...results.open.values()].flat().filter((x) => x.sends);
  if (late.length)
    console.log(
      `this script's open-loop clients: ${late.reduce((s, x) => s + x.lateSends, 0)} of ${late.reduce((s, x) => s + x.sends, 0)} ` +
        `measured sends started > 1 ms after their due time\n`,
    );
  const all = [...results.closed.values(), ...results.open.values()].flat();
  console.log(
    `other work on the machine during the windows (busy CPU minus the service and the client, % of one core of ${cpus().length}): ` +
      `median ${n0(median(all.map((x) => x.otherPct)))}%, ${range(
        all.map((x) => x.otherPct),
        pctf,
      )}; load average at the end ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  );
}

if (process.argv[2] === '--client') await clientMain(JSON.parse(process.argv[3]));
else await main();
