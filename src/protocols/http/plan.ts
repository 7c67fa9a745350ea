// An HTTP scenario's requests as the runner gets them: bodies files read (their slots checked), the
// data file's rows.
import type { HttpTarget, RequestSpec } from '../../config-parts/types.js';
import { basename } from 'node:path';
import { usageError } from '../../common/errors.js';
import type { PlanHttp, PlanRequest } from '../../runner-kit/plan.js';
import { templateProblems } from '../../runner-kit/template.js';

function planRequest(
  r: RequestSpec,
  readBodies: (file: string) => string[],
  columns: readonly string[] | undefined,
): PlanRequest {
  const request: PlanRequest = { url: r.url, method: r.method, headers: r.headers };
  if (r.body !== undefined) request.body = r.body;
  if (r.bodiesFile !== undefined) {
    request.bodies = readBodies(r.bodiesFile);
    // the config's check names a bad line by its line in the file (config/placeholder-kinds.ts);
    // this one stands behind it, naming the body by its place among the file's bodies
    request.bodies.forEach((b, i) => {
      const [problem] = templateProblems(b, columns);
      if (problem) throw usageError(`bodies file ${r.bodiesFile}, body ${i + 1}: ${problem}`);
    });
  }
  if (r.expect !== undefined) request.expect = r.expect;
  if (r.timeoutMs !== undefined) request.timeoutMs = r.timeoutMs;
  return request;
}

export function planHttp(target: HttpTarget, readBodies: (file: string) => string[]): PlanHttp {
  const columns = target.data?.columns;
  const planned: PlanHttp = { kind: 'http', request: planRequest(target.request, readBodies, columns) };
  if (target.http === 2) planned.http = 2;
  if (target.mix) {
    planned.mix = target.mix.map((e) => ({
      name: e.name,
      weight: e.weight,
      request: planRequest(e.request, readBodies, columns),
    }));
  }
  if (target.flow) planned.flow = { extract: target.flow.extract };
  if (target.hook) planned.hook = { file: basename(target.hook.file), source: target.hook.source ?? '' };
  if (target.data) {
    planned.data = { columns: target.data.columns ?? [], rows: target.data.rows ?? [], order: target.data.order };
  }
  return planned;
}
