// Issue 34's flow target: a two-step declarative flow (create an order, read it back by the id the
// create answered) at ≥ 0.8× the requests/s of the same two requests without the dependency (a 1:1
// mix: two single-request scenarios on the same connections), side by side in one run. The fixture
// service (ORDERS=1) on the target core, the runner on the generator core; rounds alternate the order.
// Also a one-request scenario with `{{uuid()}}` in its body against the same request without it: what
// rendering a request per send costs; and a script hook that returns a constant (issue 34: ≤ 2 µs of
// generator CPU a call) against the same request without a hook.
// Usage: node bench/flow.mjs [rounds, default 5] [seconds per run, default 5] [connections, default 8]
// Traffic stays on 127.0.0.1. Every loop is bounded by the round count.
import { median, perfGate, printMachine, ratio, startTarget, table } from './lib.mjs';

const rounds = Number(process.argv[2] ?? 5);
const seconds = Number(process.argv[3] ?? 5);
const connections = Number(process.argv[4] ?? 8);
const PORT = 18934;
let runs = 0;

printMachine();
const variantsAt = (origin) => {
  const create = {
    url: `${origin}/orders`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"item":"desk"}',
  };
  return {
    // the dependency: each read waits for its create and asks for the id it answered
    flow: {
      request: create,
      mix: [
        { name: 'create', weight: 1, request: create },
        { name: 'read', weight: 1, request: { url: `${origin}/orders/{{id}}`, method: 'GET', headers: {} } },
      ],
      flow: { extract: [[{ name: 'id', rule: { json: '$.id' } }], []] },
    },
    // the same two requests, independent (the read asks for an order that exists)
    mix: {
      request: create,
      mix: [
        { name: 'create', weight: 1, request: create },
        { name: 'read', weight: 1, request: { url: `${origin}/orders/1`, method: 'GET', headers: {} } },
      ],
    },
    'uuid body': { request: { ...create, body: '{"item":"desk","ref":"{{uuid()}}"}' } },
    'fixed body': { request: { ...create, body: '{"item":"desk","ref":"00000000-0000-4000-8000-000000000000"}' } },
    // a script hook that returns a constant (the same object every call: its bytes are reused), and one
    // that returns a new object each call (the request serialised for every send)
    'hook, constant': {
      request: create,
      hook: {
        file: 'constant.mjs',
        source: 'const R = { body: \'{"item":"desk"}\' };\nexport function request() { return R; }\n',
      },
    },
    'hook, new object': {
      request: create,
      hook: { file: 'fresh.mjs', source: 'export function request() { return { body: \'{"item":"desk"}\' }; }\n' },
    },
    'no hook': { request: create },
  };
};
const phase = { kind: 'closed', name: 'c', connections, durationMs: seconds * 1000 };
const names = Object.keys(variantsAt(''));
const seen = Object.fromEntries(names.map((k) => [k, []]));
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? names : [...names].reverse();
  for (const name of order) {
    // a fresh service for every run: the orders it keeps would otherwise slow the later runs
    // (on a port of its own: the last one's may still be closing)
    const port = PORT + (runs++ % 8);
    const sut = await startTarget(port, { ORDERS: '1' });
    const origin = `http://127.0.0.1:${port}`;
    try {
      const { rps, measurement } = await perfGate(`${origin}/orders`, phase, {
        warmupMs: 1000,
        target: variantsAt(origin)[name],
      });
      const cpuUs = (measurement.generator.cpuPct / 100) * seconds * 1e6;
      seen[name].push({
        hookUsPerCall: measurement.generator.hook
          ? measurement.generator.hook.us / Math.max(1, measurement.generator.hook.calls)
          : NaN,
        rps,
        cpuUsPerReq: cpuUs / Math.max(1, measurement.responses),
        failed: measurement.responses - measurement.successes,
      });
      process.stderr.write(
        `[flow] round ${r + 1}/${rounds} ${name}: ${Math.round(rps)} req/s, ${measurement.responses - measurement.successes} of ${measurement.responses} failed\n`,
      );
    } finally {
      sut.stop();
    }
  }
}
const med = (name, k) => median(seen[name].map((x) => x[k]));
table(
  ['variant', 'req/s (median)', 'generator CPU µs/req (median)', 'failed responses (all runs)', 'runs'],
  names.map((n) => [
    n,
    Math.round(med(n, 'rps')),
    med(n, 'cpuUsPerReq').toFixed(1),
    seen[n].reduce((a, x) => a + x.failed, 0),
    seen[n].length,
  ]),
);
console.log(`flow ÷ mix req/s: ${ratio(med('flow', 'rps'), med('mix', 'rps'))} (target ≥ 0.8)`);
console.log(`per round: ${seen.flow.map((f, i) => ratio(f.rps, seen.mix[i].rps)).join(', ')}`);
console.log(`uuid body ÷ fixed body req/s: ${ratio(med('uuid body', 'rps'), med('fixed body', 'rps'))}`);
for (const h of ['hook, constant', 'hook, new object']) {
  console.log(
    `${h}: the runner's CPU a request ${(med(h, 'cpuUsPerReq') - med('no hook', 'cpuUsPerReq')).toFixed(2)} µs above no hook (target ≤ 2 µs a call); time inside the hook ${med(h, 'hookUsPerCall').toFixed(3)} µs a call`,
  );
}
