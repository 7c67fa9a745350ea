// A plan target with the placeholders of its request texts filled in (URLs, headers, bodies, gRPC
// metadata, WebSocket hello and message templates): the host's environment pass and the runner's
// setup pass walk the same fields. Pure.
import type { PlanGrpcTarget, PlanHttp, PlanMixEntry, PlanRequest, PlanTarget, PlanWs } from './plan.js';
import { assertNever } from './protocols.js';

/** One text filled in; `at` names its key in errors (`scenarios[0] (login).request.url`); `header`:
 * the text is a header's or metadata's value. */
export type Fill = (text: string, at: string, header?: boolean) => string;

/** Every value of a header or metadata record filled in, each named `${at}.${key}` in errors. */
export function fillRecord(record: Record<string, string>, fill: Fill, at: string): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, fill(v, `${at}.${k}`, true)]));
}

/** An HTTP request's URL, headers, body and bodies filled in. */
export function fillRequest(r: PlanRequest, fill: Fill, at: string): PlanRequest {
  const request: PlanRequest = {
    ...r,
    url: fill(r.url, `${at}.url`),
    headers: fillRecord(r.headers, fill, `${at}.headers`),
  };
  if (r.body !== undefined) request.body = fill(r.body, `${at}.body`);
  if (r.bodies !== undefined) request.bodies = r.bodies.map((b, j) => fill(b, `${at}.bodies[${j}]`));
  return request;
}

function fillHttp(target: PlanHttp, fill: Fill, at: string): PlanHttp {
  if (!target.mix) return { ...target, request: fillRequest(target.request, fill, `${at}.request`) };
  const mix = target.mix.map((e, j) => ({ ...e, request: fillRequest(e.request, fill, `${at}.requests[${j}]`) }));
  return { ...target, mix, request: (mix[0] as PlanMixEntry).request };
}

function fillWs(target: PlanWs, fill: Fill, at: string): PlanWs {
  const w = target.websocket;
  const where = `${at}.websocket`;
  return {
    ...target,
    websocket: {
      ...w,
      url: fill(w.url, `${where}.url`),
      headers: fillRecord(w.headers, fill, `${where}.headers`),
      hello: w.hello.map((h, j) => fill(h, `${where}.hello[${j}]`)),
      message: fill(w.message, `${where}.message`),
    },
  };
}

function fillGrpc(target: PlanGrpcTarget, fill: Fill, at: string): PlanGrpcTarget {
  const g = target.grpc;
  const where = `${at}.grpc`;
  return {
    ...target,
    grpc: { ...g, url: fill(g.url, `${where}.url`), metadata: fillRecord(g.metadata, fill, `${where}.metadata`) },
  };
}

/** The target with every request text filled in, by its kind. */
export function fillTarget(target: PlanTarget, fill: Fill, at: string): PlanTarget {
  switch (target.kind) {
    case 'http':
      return fillHttp(target, fill, at);
    case 'ws':
      return fillWs(target, fill, at);
    case 'grpc':
      return fillGrpc(target, fill, at);
    default:
      return assertNever(target);
  }
}
