// Pure: where each scenario starts in the config's YAML (1-based line of its `name:`), so annotations
// can point at it. A config that does not parse, or a scenario without a literal name, has no line.
import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';

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
