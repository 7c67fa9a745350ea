// Pure: a scenario's data file (`data.file`) read into columns and rows of text. CSV as RFC 4180 writes
// it (a header row; fields separated by commas; a quoted field may hold commas, quotes doubled and line
// breaks; CRLF or LF; a leading BOM dropped) or JSONL (one object per line: a string is its text, a
// number, boolean or null its JSON, an object or array its JSON text; a key missing from a row is
// empty). Every problem names the file and line.
import { parseJsonl } from '../common/jsonl.js';

export interface DataTable {
  columns: string[];
  rows: string[][];
}

/** The most rows a data file may have (the runner holds them all, once per engine thread). */
export const MAX_DATA_ROWS = 1_000_000;

export function parseDataFile(text: string, file: string): DataTable {
  const table = /\.csv$/i.test(file) ? parseCsv(text, file) : parseJsonlTable(text, file);
  if (table.rows.length === 0) throw new Error(`${file}: no rows (a header and at least one row expected)`);
  if (table.rows.length > MAX_DATA_ROWS)
    throw new Error(`${file}: ${table.rows.length} rows; at most ${MAX_DATA_ROWS.toLocaleString('en')}`);
  return table;
}

/** RFC 4180 records, each with the line it starts on. */
function csvRecords(text: string, file: string): Array<{ line: number; fields: string[] }> {
  const records: Array<{ line: number; fields: string[] }> = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let start = 1;
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRecord = () => {
    fields.push(field);
    // a blank line is no record
    if (!(fields.length === 1 && fields[0] === '')) records.push({ line: start, fields });
    fields = [];
    field = '';
  };
  for (; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === '\n') line++;
        field += c;
      }
    } else if (c === '"') {
      if (field !== '') throw new Error(`${file}:${line}: a quote inside an unquoted field (quote the whole field)`);
      quoted = true;
    } else if (c === ',') {
      fields.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      start = line;
    } else field += c;
  }
  if (quoted) throw new Error(`${file}:${start}: a quoted field is not closed`);
  if (field !== '' || fields.length > 0) endRecord();
  return records;
}

function parseCsv(text: string, file: string): DataTable {
  const [header, ...records] = csvRecords(text, file);
  if (!header) throw new Error(`${file}: empty (a header row of column names expected)`);
  const columns = header.fields.map((c) => c.trim());
  columns.forEach((c, i) => {
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(c))
      throw new Error(
        `${file}:${header.line}: column ${i + 1} is named ${JSON.stringify(c)}; a name of letters, digits, _ and - is used as {{ data.NAME }}`,
      );
    if (columns.indexOf(c) !== i) throw new Error(`${file}:${header.line}: column ${c} is named twice`);
  });
  const rows = records.map((r) => {
    if (r.fields.length !== columns.length)
      throw new Error(`${file}:${r.line}: ${r.fields.length} fields; the header has ${columns.length}`);
    return r.fields;
  });
  return { columns, rows };
}

function parseJsonlTable(text: string, file: string): DataTable {
  const objects = parseJsonl(text, (n) => `${file}:${n}`);
  const columns: string[] = [];
  const seen = new Set<string>();
  objects.forEach((o, i) => {
    if (o === null || typeof o !== 'object' || Array.isArray(o))
      throw new Error(`${file}: row ${i + 1} is not an object (one {"column": value} per line)`);
    for (const k of Object.keys(o)) {
      if (seen.has(k)) continue;
      if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(k))
        throw new Error(
          `${file}: row ${i + 1} has the key ${JSON.stringify(k)}; a name of letters, digits, _ and - is used as {{ data.NAME }}`,
        );
      seen.add(k);
      columns.push(k);
    }
  });
  const text_ = (v: unknown): string => (v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));
  const rows = objects.map((o) => columns.map((c) => text_((o as Record<string, unknown>)[c])));
  return { columns, rows };
}
