// `setup` (docs/setup.md): HTTP requests the runner sends once per side before any load, whose
// extracted values the scenarios use as `${name}`. Its schema, and its reading into the normalised
// steps: names unique, every rule able to read something, and no step using a value before a step
// has extracted it. Pure.
import { z } from 'zod';
import { extractRule, request } from '../protocols/http/schema.js';
import { normalizeRequest } from '../protocols/http/normalize.js';
import type { NormalizeContext } from '../protocols/protocol.js';
import { PLACEHOLDER_NAME, placeholders } from '../runner-kit/placeholders.js';
import { type ExtractRule, ruleProblem } from '../runner-kit/setup.js';
import { duplicates } from '../config-parts/phases.js';
import { name } from '../config-parts/schema-parts.js';
import type { RequestSpec, SetupStep } from '../config-parts/types.js';

const setupStep = z.strictObject({
  name: name.describe('names the step in messages'),
  request: request
    .omit({ bodies: true, http: true })
    .describe('the request, sent once (HTTP/1.1, no redirect followed); its expect must hold, default a 2xx or 3xx'),
  extract: z
    .record(
      z.string().regex(PLACEHOLDER_NAME, { error: 'must be a name of letters, digits and _ (used as ${name})' }),
      extractRule,
    )
    .optional()
    .describe('value name → where it is read from the answer; later steps and every scenario use it as ${name}'),
});

export const setupSchema = z
  .array(setupStep, { error: 'must be a list of steps' })
  .min(1, { error: 'must list at least one step' })
  .max(20, { error: 'must list at most 20 steps' })
  .describe(
    'requests sent once per run (per side in A/B) after the SUT is ready and before any load; the values they extract fill ${name} in the scenarios, in the runner only (never written to results, baselines or the report)',
  );

export type RawSetup = z.infer<typeof setupSchema>;

/** The names a request's texts use. */
function namesUsed(r: RequestSpec): string[] {
  return [r.url, ...Object.values(r.headers), r.body ?? ''].flatMap(placeholders);
}

/** The steps, each problem a `setup[i]...: message` line in `problems`. */
export function normalizeSetup(
  raw: RawSetup,
  ctx: Pick<NormalizeContext, 'problems' | 'resolveUrl' | 'resolveAt'>,
  loopback: (url: string) => string | undefined,
): SetupStep[] {
  const { problems } = ctx;
  const steps = raw.map((s, i): SetupStep => {
    const path = `setup[${i}]`;
    const request = normalizeRequest(s.request, `${path}.request`, problems, ctx.resolveAt, ctx.resolveUrl);
    const where = loopback(request.url);
    if (where) problems.push(`${path}.request.url: ${where}`);
    const extract = Object.entries(s.extract ?? {}).map(([value, r]) => {
      const rule: ExtractRule = 'regex' in r ? { regex: r.regex, group: r.group ?? 1 } : r;
      const problem = ruleProblem(rule);
      if (problem) problems.push(`${path}.extract.${value}: ${problem}`);
      return { name: value, rule };
    });
    return { name: s.name, request, extract };
  });
  for (const dup of duplicates(steps.map((s) => s.name)))
    problems.push(`setup: step name "${dup}" is used twice (it names the step in messages)`);
  const extractedAt = new Map<string, number>();
  steps.forEach((s, i) => {
    for (const e of s.extract) {
      const first = extractedAt.get(e.name);
      if (first !== undefined)
        problems.push(
          `setup[${i}].extract.${e.name}: ${e.name} is extracted by setup[${first}] (${steps[first]?.name}) too`,
        );
      else extractedAt.set(e.name, i);
    }
  });
  steps.forEach((s, i) => {
    for (const used of new Set(namesUsed(s.request))) {
      const at = extractedAt.get(used);
      if (at !== undefined && at >= i)
        problems.push(
          `setup[${i}].request: uses \${${used}}, which ${at === i ? 'this step' : `a later step (setup[${at}], ${steps[at]?.name})`} extracts; a step sees only the values of the steps before it`,
        );
    }
  });
  return steps;
}
