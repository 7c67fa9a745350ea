// HTTP scenarios beyond the config's text: each data file read (its columns and rows kept on the target
// for the plan), and every `{{ … }}` slot of a request's url, headers and body checked against the
// functions there are and the data's columns. A bodies file's lines are checked when it is read.
import { parseDataFile } from '../../config-parts/data-file.js';
import { UNSAFE_HEADER_VALUE } from '../../runner-kit/connection-header.js';
import type { RequestSpec, Scenario } from '../../config-parts/types.js';
import { compileText, isDynamic, readsBody, templateProblems } from '../../runner-kit/template.js';
import type { ResolveIo } from '../protocol.js';
import { readHook } from '../hook-source.js';

/**
 * The slots' problems of one request's texts, each a `path: message` line: slots that do not read,
 * a slot in the URL's origin (connections are opened once, to one host), and a data value with a line
 * break that a header slot would send (it would end the header).
 */
export function requestTemplateProblems(
  r: RequestSpec,
  path: string,
  data: { columns: readonly string[]; rows: readonly string[][]; file: string } | undefined,
  /** a flow's value names (its steps' `{{ name }}`) */
  values?: ReadonlySet<string>,
): string[] {
  const columns = data?.columns;
  const headers = Object.entries(r.headers).map(([k, v]): [string, string] => [`${path}.headers.${k}`, v]);
  const texts: Array<[string, string]> = [
    [`${path}.url`, r.url],
    ...headers,
    ...(r.body !== undefined ? [[`${path}.body`, r.body] as [string, string]] : []),
  ];
  const problems = texts.flatMap(([at, text]) => templateProblems(text, columns, values).map((p) => `${at}: ${p}`));
  if (r.body !== undefined && readsBody(compileText(r.body, columns, values).compiled))
    problems.push(
      `${path}.body: \`body\` as an argument in the body itself (sign or encode the body from its URL or headers)`,
    );
  if (/^https?:\/\/[^/]*\{\{/.test(r.url))
    problems.push(
      `${path}.url: a {{ }} slot in the host or port: a phase's connections go to one origin; put slots in the path or query`,
    );
  if (data) {
    for (const [at, text] of headers) {
      for (const c of usedColumns(text, data.columns)) {
        const i = data.columns.indexOf(c);
        const bad = data.rows.findIndex((row) => UNSAFE_HEADER_VALUE.test(row[i] ?? ''));
        if (bad >= 0)
          problems.push(
            `${at}: column ${c} of ${data.file}, row ${bad + 1}, holds a line break, a NUL or a character beyond Latin-1: it cannot go into a header`,
          );
      }
    }
  }
  return problems;
}

/** The data columns a text's slots read. */
function usedColumns(text: string, columns: readonly string[]): string[] {
  const { compiled } = compileText(text, columns);
  return [
    ...new Set(
      compiled.parts.flatMap((p) => (typeof p !== 'string' && p.kind === 'data' ? [columns[p.column] as string] : [])),
    ),
  ];
}

export function resolveHttp(scenarios: readonly Scenario[], io: ResolveIo): string[] {
  const problems: string[] = [];
  scenarios.forEach((s, i) => {
    const t = s.target;
    if (t.kind !== 'http') return;
    const path = `scenarios[${i}]`;
    if (t.hook) {
      const problem = readHook(t.hook, io, ['request', 'check']);
      if (problem) problems.push(`${path}.hook: ${problem}`);
      // what the hook's request() does not return is the scenario's request as written: it must be
      // one request, sent as it is
      const r = t.request;
      if (r.bodiesFile !== undefined)
        problems.push(`${path}.request.bodies: not with a hook (its request() gives the body)`);
      if (
        [r.url, ...Object.values(r.headers), r.body ?? ''].some((x) =>
          isDynamic(compileText(x, t.data?.columns).compiled),
        )
      )
        problems.push(`${path}.request: no {{…}} slots with a hook (its request() builds what varies)`);
    }
    if (t.data) {
      try {
        const table = parseDataFile(io.readText(t.data.file), t.data.file);
        t.data.columns = table.columns;
        t.data.rows = table.rows;
      } catch (err) {
        problems.push(`${path}.data.file: ${(err as Error).message}`);
        return;
      }
    }
    const data =
      t.data?.columns && t.data.rows ? { columns: t.data.columns, rows: t.data.rows, file: t.data.file } : undefined;
    if (t.flow) {
      // a flow's `{{ name }}` names a value a step extracts: any other is a mistake, not text
      const values = new Set(t.flow.extract.flat().map((e) => e.name));
      t.mix?.forEach((e, j) => {
        // (a {{name}} no step extracts: config/placeholder-kinds.ts, with the kind it most likely is)
        problems.push(...requestTemplateProblems(e.request, `${path}.flow[${j}]`, data, values));
        // a check compares with the iteration's values only: data and functions are not made there
        const checks = [
          ...(e.request.expect?.body ?? []),
          ...(e.request.expect?.json ?? []).flatMap((c) => (typeof c.equals === 'string' ? [c.equals] : [])),
        ];
        if (
          checks.some((x) =>
            compileText(x, t.data?.columns, values).compiled.parts.some(
              (p) => typeof p !== 'string' && p.kind !== 'value',
            ),
          )
        )
          problems.push(
            `${path}.flow[${j}].expect: a check compares with the flow's values ({{name}}) only, not {{data.…}} or functions`,
          );
      });
    } else if (t.mix)
      t.mix.forEach((e, j) => problems.push(...requestTemplateProblems(e.request, `${path}.requests[${j}]`, data)));
    else problems.push(...requestTemplateProblems(t.request, `${path}.request`, data));
  });
  return problems;
}
