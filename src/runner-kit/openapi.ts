// Pure: the GET operations of an OpenAPI (3.x) or Swagger (2.0) document that can be called as they
// are: no parameters, or every required path and query parameter with an example (or a default or an
// enum's first value) to fill in. Used by `init --probe` (the runner reads the document from the
// service, the host writes one scenario per operation). The document is untrusted: bounded, and only
// paths come out, each checked to be a plain request path.

/** At most this many operations are returned. */
export const MAX_GETS = 10;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/** A parameter's value from its example, the first of its examples, its schema's example or default,
 * or its enum's first value; undefined when it has none. */
function exampleOf(param: Obj): string | undefined {
  const schema = obj(param.schema);
  const examples = Object.values(obj(param.examples)).map((e) => obj(e).value);
  const candidates = [
    param.example,
    examples[0],
    schema.example,
    param['x-example'],
    schema.default,
    param.default,
    Array.isArray(schema.enum) ? schema.enum[0] : undefined,
    Array.isArray(param.enum) ? param.enum[0] : undefined,
  ];
  const v = candidates.find((c) => typeof c === 'string' || typeof c === 'number' || typeof c === 'boolean');
  return v === undefined ? undefined : String(v);
}

/** A resolved `$ref` within the document (#/components/parameters/x, #/parameters/x), once. */
function deref(doc: Obj, v: unknown): Obj {
  const ref = obj(v).$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return obj(v);
  let at: unknown = doc;
  for (const part of ref.slice(2).split('/')) at = obj(at)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return obj(at);
}

/** The request paths (with their query) of the document's callable GET operations, in document order. */
export function callableGets(document: unknown, basePath = ''): string[] {
  const doc = obj(document);
  if (typeof doc.openapi !== 'string' && typeof doc.swagger !== 'string') return [];
  // Swagger 2.0's basePath; OpenAPI 3's first server URL's path, when it is relative or absolute
  const server = Array.isArray(doc.servers) ? obj(doc.servers[0]).url : undefined;
  let prefix = typeof doc.basePath === 'string' ? doc.basePath : basePath;
  // a server URL with {variables} names no one path: no prefix then
  if (typeof server === 'string' && !server.includes('{')) {
    try {
      prefix = new URL(server, 'http://x').pathname;
    } catch {
      // not a URL: no prefix
    }
  }
  // a security requirement: the document's, unless an operation says `security: []` (public)
  const needsAuth = (op: Obj) => {
    const sec = Array.isArray(op.security) ? op.security : doc.security;
    return Array.isArray(sec) && sec.length > 0 && !sec.some((r) => Object.keys(obj(r)).length === 0);
  };
  prefix = prefix.replace(/\/+$/, '');
  const out: string[] = [];
  for (const [template, rawItem] of Object.entries(obj(doc.paths))) {
    if (out.length >= MAX_GETS) break;
    const item = obj(rawItem);
    const get = obj(item.get);
    const hasGet = item.get !== null && typeof item.get === 'object' && !Array.isArray(item.get);
    if (!template.startsWith('/') || !hasGet || get.deprecated === true) continue;
    if (needsAuth(get)) continue;
    const all = [
      ...(Array.isArray(item.parameters) ? item.parameters : []),
      ...(Array.isArray(get.parameters) ? get.parameters : []),
    ].map((p) => deref(doc, p));
    // a required header or cookie (a token, a tenant) is not known here: the operation is not called
    if (all.some((p) => (p.in === 'header' || p.in === 'cookie') && p.required === true)) continue;
    const params = all.filter((p) => p.in === 'path' || p.in === 'query');
    let path = template;
    const query: string[] = [];
    let callable = true;
    for (const p of params) {
      const name = typeof p.name === 'string' ? p.name : '';
      const value = exampleOf(p);
      if (p.in === 'path') {
        if (value === undefined) {
          callable = false;
          break;
        }
        path = path.split(`{${name}}`).join(encodeURIComponent(value));
      } else if (value !== undefined && p.required === true) {
        query.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
      } else if (p.required === true) {
        callable = false;
        break;
      }
    }
    const full = `${prefix}${path}${query.length ? `?${query.join('&')}` : ''}`;
    // a template left unfilled, or anything that is not a plain request path, is not called
    if (!callable || /[{}\s\\#]/.test(full) || full.length > 2000 || !full.startsWith('/')) continue;
    out.push(full);
  }
  return out;
}
