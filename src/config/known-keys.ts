// Pure: the keys a config may have at a path, read from the JSON Schema the zod schema generates
// (the one shipped for editors), so a "did you mean" never suggests a key that is not valid there.
type JsonSchema = {
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  additionalProperties?: JsonSchema | boolean;
  patternProperties?: Record<string, JsonSchema>;
};

/** The schemas a value at `path` may have to match (several where the schema is a union). */
function schemasAt(root: JsonSchema, path: ReadonlyArray<PropertyKey>): JsonSchema[] {
  let current = [root];
  for (const part of path) {
    const next: JsonSchema[] = [];
    for (const s of current.flatMap(alternatives)) {
      if (typeof part === 'number') {
        if (s.items) next.push(s.items);
      } else {
        const named = s.properties?.[String(part)];
        // a key the schema matches by pattern (a percentile under thresholds: p97.5)
        const patterned = Object.entries(s.patternProperties ?? {})
          .filter(([pattern]) => new RegExp(pattern).test(String(part)))
          .map(([, schema]) => schema);
        if (named) next.push(named);
        else if (patterned.length > 0) next.push(...patterned);
        else if (typeof s.additionalProperties === 'object') next.push(s.additionalProperties);
      }
    }
    current = next;
  }
  return current.flatMap(alternatives);
}

function alternatives(s: JsonSchema): JsonSchema[] {
  const subs = [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])];
  return subs.length === 0 ? [s] : [s, ...subs.flatMap(alternatives)];
}

/** The property names the schema lists for an object at `path`, in schema order, each once. */
export function keysAt(schema: object, path: ReadonlyArray<PropertyKey>): string[] {
  return [...new Set(schemasAt(schema as JsonSchema, path).flatMap((s) => Object.keys(s.properties ?? {})))];
}
