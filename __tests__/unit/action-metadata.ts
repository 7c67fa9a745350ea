// Pure: an action.yml checked against the action metadata syntax the Actions runner loads
// (docs "Metadata syntax for GitHub Actions"; the runner's action manifest schema, of which nektos/act
// carries a copy). The runner refuses an unknown property where its schema is closed (an output's
// `default` is "Unknown Property default" and the Action does not load); where the runner's schema is
// loose (the root, an input) an unknown key is silently ignored, which hides a typo: both are problems
// here. Each problem is `LINE: path: message`, in the order of the lines.
import { isMap, isScalar, LineCounter, parseDocument, type Node, type YAMLMap } from 'yaml';

const ROOT_KEYS = ['name', 'author', 'description', 'inputs', 'outputs', 'runs', 'branding'];
const INPUT_KEYS = ['description', 'required', 'default', 'deprecationMessage'];
/** `value` only for composite actions: a JavaScript or Docker action sets its outputs itself */
const OUTPUT_KEYS = ['description'];
const COMPOSITE_OUTPUT_KEYS = ['description', 'value'];
/** node12 and node16 are retired on GitHub-hosted runners */
const NODE_RUNTIMES = ['node20', 'node24'];
const RUNS_KEYS: Record<string, string[]> = {
  node: ['using', 'main', 'pre', 'pre-if', 'post', 'post-if'],
  composite: ['using', 'steps'],
  docker: ['using', 'image', 'entrypoint', 'args', 'env', 'pre-entrypoint', 'pre-if', 'post-entrypoint', 'post-if'],
};
const BRANDING_KEYS = ['icon', 'color'];
const BRANDING_COLORS = ['white', 'black', 'yellow', 'blue', 'green', 'orange', 'red', 'purple', 'gray-dark'];
const ID = /^[_a-zA-Z][a-zA-Z0-9_-]*$/;

export function actionMetadataProblems(text: string): string[] {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter });
  const problems: string[] = [];
  const at = (node: Node | null | undefined, path: string, message: string) => {
    const line = node?.range ? counter.linePos(node.range[0]).line : 1;
    problems.push(`${line}: ${path}: ${message}`);
  };
  if (doc.errors.length > 0) return doc.errors.map((e) => `${e.linePos?.[0].line ?? 1}: ${e.message}`);
  const root = doc.contents;
  if (!isMap(root)) return ['1: the file is not a mapping'];

  /** the mapping's keys outside `allowed` are problems; the key nodes by name */
  const entries = (
    map: YAMLMap,
    path: string,
    allowed: string[] | null,
  ): Map<string, { key: Node; value: unknown }> => {
    const out = new Map<string, { key: Node; value: unknown }>();
    for (const pair of map.items) {
      const key = pair.key as Node;
      const name = isScalar(key) ? String(key.value) : '';
      if (allowed && !allowed.includes(name)) at(key, path, `unknown property ${name}`);
      out.set(name, { key, value: pair.value });
    }
    return out;
  };
  const str = (value: unknown): string | undefined =>
    isScalar(value) && typeof value.value === 'string' ? value.value : undefined;
  const requireString = (
    fields: Map<string, { key: Node; value: unknown }>,
    name: string,
    path: string,
    node: Node,
  ) => {
    const f = fields.get(name);
    if (!f) at(node, path, `${name} is required`);
    else if (!str(f.value)) at(f.key, `${path}.${name}`, 'must be a string');
  };

  const top = entries(root, '(root)', ROOT_KEYS);
  for (const k of ['name', 'description', 'runs']) if (!top.has(k)) at(root, '(root)', `${k} is required`);

  const runs = top.get('runs')?.value;
  let using = '';
  if (top.has('runs') && !isMap(runs)) at(top.get('runs')?.key, 'runs', 'must be a mapping');
  if (isMap(runs)) {
    const runFields = entries(runs, 'runs', null);
    using = str(runFields.get('using')?.value) ?? '';
    const kind = NODE_RUNTIMES.includes(using) ? 'node' : using === 'composite' || using === 'docker' ? using : '';
    if (!kind)
      at(runFields.get('using')?.key ?? runs, 'runs.using', `"${using}" is not node20, node24, composite or docker`);
    else {
      entries(runs, 'runs', RUNS_KEYS[kind] ?? []);
      const needed = kind === 'node' ? 'main' : kind === 'composite' ? 'steps' : 'image';
      if (!runFields.has(needed)) at(runs, 'runs', `${needed} is required with using: ${using}`);
      for (const step of ['pre', 'post'] as const) {
        const guard = runFields.get(`${step}-if`);
        const has = kind === 'node' ? runFields.has(step) : runFields.has(`${step}-entrypoint`);
        if (guard && !has) at(guard.key, `runs.${step}-if`, `without a ${step} step`);
      }
    }
  }

  const inputs = top.get('inputs');
  if (inputs && !isMap(inputs.value)) at(inputs.key, 'inputs', 'must be a mapping');
  if (inputs && isMap(inputs.value)) {
    for (const [id, { key, value }] of entries(inputs.value, 'inputs', null)) {
      const path = `inputs.${id}`;
      if (!ID.test(id)) at(key, path, 'an input id is letters, digits, - and _, not starting with a digit or -');
      if (!isMap(value)) {
        at(key, path, 'must be a mapping');
        continue;
      }
      const fields = entries(value, path, INPUT_KEYS);
      requireString(fields, 'description', path, key);
      const required = fields.get('required');
      if (required && !(isScalar(required.value) && typeof required.value.value === 'boolean'))
        at(required.key, `${path}.required`, 'must be true or false');
      const def = fields.get('default');
      if (def && !isScalar(def.value)) at(def.key, `${path}.default`, 'must be a scalar');
      const deprecation = fields.get('deprecationMessage');
      if (deprecation && !str(deprecation.value)) at(deprecation.key, `${path}.deprecationMessage`, 'must be a string');
    }
  }

  const outputs = top.get('outputs');
  if (outputs && !isMap(outputs.value)) at(outputs.key, 'outputs', 'must be a mapping');
  if (outputs && isMap(outputs.value)) {
    const allowed = using === 'composite' ? COMPOSITE_OUTPUT_KEYS : OUTPUT_KEYS;
    for (const [id, { key, value }] of entries(outputs.value, 'outputs', null)) {
      const path = `outputs.${id}`;
      if (!ID.test(id)) at(key, path, 'an output id is letters, digits, - and _, not starting with a digit or -');
      if (!isMap(value)) {
        at(key, path, 'must be a mapping');
        continue;
      }
      const fields = entries(value, path, allowed);
      requireString(fields, 'description', path, key);
      if (using === 'composite' && !fields.has('value')) at(key, path, 'value is required in a composite action');
    }
  }

  const branding = top.get('branding');
  if (branding && !isMap(branding.value)) at(branding.key, 'branding', 'must be a mapping');
  if (branding && isMap(branding.value)) {
    const fields = entries(branding.value, 'branding', BRANDING_KEYS);
    const color = fields.get('color');
    if (color && !BRANDING_COLORS.includes(str(color.value) ?? ''))
      at(color.key, 'branding.color', `must be one of ${BRANDING_COLORS.join(', ')}`);
  }
  return problems.sort((a, b) => parseInt(a, 10) - parseInt(b, 10));
}
