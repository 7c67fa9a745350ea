// Pure: where things are in the config's YAML: where each scenario starts (1-based line of its
// `name:`), so annotations can point at it, and where a problem's key is, so every config problem
// reads `FILE:LINE:COL: key.path: message`. A config that does not parse has no lines.
import { type Document, isMap, isNode, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';

export function scenarioLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, keepSourceTokens: false });
  if (doc.errors.length > 0 || !isMap(doc.contents)) return lines;
  const scenarios = doc.contents.get('scenarios', true);
  if (!isSeq(scenarios)) return lines;
  for (const item of scenarios.items) {
    if (!isMap(item)) continue;
    const name = item.get('name', true);
    if (isScalar(name) && typeof name.value === 'string' && name.range && !lines.has(name.value)) {
      lines.set(name.value, counter.linePos(name.range[0]).line);
    }
  }
  return lines;
}

type Located = { line: number; col: number };

/**
 * Pure: where a problem's key path (`scenarios[0].phases[1].rate: ...`, `scenarios[0] (api).request`)
 * is written in the config's YAML: the line and column of the deepest key (or list item) of the path
 * that the file has. Keys are matched against the file's own, so a key with a dot in it (`p99.9`)
 * is one key. Undefined when the file does not parse or the path's first key is not in it.
 */
export function problemPosition(doc: Document, counter: LineCounter, problem: string): Located | undefined {
  let node: unknown = doc.contents;
  let rest = problem;
  let at: number | undefined;
  for (;;) {
    if (rest.startsWith(': ') || rest === '' || rest.startsWith(':')) break;
    const decoration = /^ \([^)]*\)/.exec(rest);
    if (decoration) {
      rest = rest.slice(decoration[0].length);
      continue;
    }
    if (at !== undefined && rest.startsWith('.')) {
      rest = rest.slice(1);
      continue;
    }
    const index = /^\[(\d+)\]/.exec(rest);
    if (index) {
      const item = isSeq(node) ? node.items[Number(index[1])] : undefined;
      if (!isNode(item) || !item.range) break;
      at = item.range[0];
      node = item;
      rest = rest.slice(index[0].length);
      continue;
    }
    if (!isMap(node)) break;
    let best: { key: string; pair: (typeof node.items)[number] } | undefined;
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
      if (key === undefined || !rest.startsWith(key) || (best && best.key.length >= key.length)) continue;
      const next = rest.slice(key.length);
      if (next === '' || /^(?:[.[:]| \()/.test(next)) best = { key, pair };
    }
    const keyNode = best?.pair.key;
    if (!best || !isScalar(keyNode) || !keyNode.range) break;
    at = keyNode.range[0];
    node = best.pair.value;
    rest = rest.slice(best.key.length);
  }
  if (at === undefined) return undefined;
  const { line, col } = counter.linePos(at);
  return { line, col };
}

/**
 * Pure: each problem as `FILE:LINE:COL: problem` where its key is found in the file (a YAML syntax
 * error's own `line N, column M:` becomes the same form), `FILE: problem` where it is not.
 */
export function locateProblems(text: string, file: string, problems: readonly string[]): string[] {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, keepSourceTokens: false });
  const parsed = doc.errors.length === 0;
  const located = problems.map((p, i) => {
    const syntax = /^line (\d+), column (\d+): (.*)$/s.exec(p);
    if (syntax)
      return {
        i,
        line: Number(syntax[1]),
        col: Number(syntax[2]),
        text: `${file}:${syntax[1]}:${syntax[2]}: ${syntax[3]}`,
      };
    if (p.startsWith('(top level): ')) return { i, line: 1, col: 1, text: `${file}:1:1: ${p}` };
    // a top-level key the file does not have has no line of its own: the file's first
    const found = parsed ? problemPosition(doc, counter, p) : undefined;
    const top = /^(version|target|sut|runner|gate|ab|defaults|scenarios): /.test(p);
    const pos = found ?? (parsed && top ? { line: 1, col: 1 } : undefined);
    return pos
      ? { i, line: pos.line, col: pos.col, text: `${file}:${pos.line}:${pos.col}: ${p}` }
      : { i, line: Number.MAX_SAFE_INTEGER, col: 0, text: `${file}: ${p}` };
  });
  // in the order of the file, as an editor lists them (the unplaced last, in the order found)
  located.sort((a, b) => a.line - b.line || a.col - b.col || a.i - b.i);
  return located.map((l) => l.text);
}
