import { Injectable } from '@nestjs/common';
import { parse } from 'csv-parse';
import secureJson from 'secure-json-parse';
import { FileCursor } from '../application/import.repository';
import { FileReader, ReadRow, RowsRead, UnreadableFileError } from '../application/file-reader';
import { ImportFormat } from '../domain/import';
import { bodyOfCells } from '../domain/pet-columns';

const NEWLINE = 0x0a;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Rows of a window of a shelter's file: CSV read by csv-parse (RFC 4180: quoted commas, doubled
 * quotes, line breaks inside quotes, a BOM, CRLF or LF), NDJSON a line at a time. Only rows the
 * window holds whole are read, each with the byte after it, so that the next read (in the next
 * step, on any instance) starts there.
 */
@Injectable()
export class CsvNdjsonFileReader extends FileReader {
  async read(
    format: ImportFormat,
    window: Buffer,
    from: FileCursor,
    options: { last: boolean; most: number; header: readonly string[] | null },
  ): Promise<RowsRead> {
    return format === 'csv' ? this.csv(window, from, options) : this.ndjson(window, from, options);
  }

  private async csv(
    window: Buffer,
    from: FileCursor,
    { last, most, header }: { last: boolean; most: number; header: readonly string[] | null },
  ): Promise<RowsRead> {
    const atStart = from.byte === 0;
    // The header and `most` rows, and one more: that one says whether the window held them all.
    const records = await csvRecords(window, atStart, last, most + (atStart ? 2 : 1));
    const [first] = records;
    const columns = atStart ? (first?.cells ?? []) : header!;
    const data = atStart ? records.slice(1) : records;
    const taken = data.slice(0, most);
    const end = taken.at(-1)?.end ?? (atStart && first ? first.end : 0);
    const rows: ReadRow[] = taken.map(({ cells }, index) => {
      const row = from.row + index + 1;
      const body = bodyOfCells(row, columns, cells);
      return 'issue' in body ? (body as ReadRow) : { row, body };
    });
    return {
      rows,
      header: atStart && first ? first.cells : undefined,
      next: { byte: from.byte + end, row: from.row + taken.length },
      ended: last && taken.length === data.length,
    };
  }

  private async ndjson(
    window: Buffer,
    from: FileCursor,
    { last, most }: { last: boolean; most: number },
  ): Promise<RowsRead> {
    const rows: ReadRow[] = [];
    let start = from.byte === 0 && window.subarray(0, 3).equals(BOM) ? 3 : 0;
    let line = from.row;
    while (rows.length < most && start < window.length) {
      let end = window.indexOf(NEWLINE, start);
      if (end < 0) {
        if (!last) break;
        end = window.length;
      }
      const text = window.toString('utf8', start, end).replace(/\r$/, '');
      start = end + 1;
      line += 1;
      if (text.trim() === '') continue;
      try {
        rows.push({
          row: line,
          body: secureJson.parse(text, { protoAction: 'error', constructorAction: 'error' }),
        });
      } catch {
        rows.push({
          row: line,
          field: null,
          issue: 'format',
          message: 'The line is not a JSON object.',
        });
      }
    }
    const byte = Math.min(start, window.length);
    return {
      rows,
      next: { byte: from.byte + byte, row: line },
      ended: last && byte >= window.length,
    };
  }
}

/**
 * The first `most` whole records of `window`, each with the byte after it; at the file's end, the
 * last one too. The parser stops at `most`: a step that takes 150 rows of a window holding
 * thousands no longer parses them all.
 */
function csvRecords(
  window: Buffer,
  atStart: boolean,
  last: boolean,
  most: number,
): Promise<{ cells: string[]; end: number }[]> {
  return new Promise((resolve, reject) => {
    const records: { cells: string[]; end: number }[] = [];
    const parser = parse({
      bom: atStart,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      to: most,
    });
    parser.on('readable', () => {
      let record: { record: string[]; info: { bytes: number } } | null;
      while ((record = parser.read() as typeof record) !== null) {
        records.push({ cells: record.record, end: record.info.bytes });
      }
    });
    parser.on('error', (error: Error) =>
      reject(new UnreadableFileError(`The CSV file cannot be read: ${error.message}`)),
    );
    parser.on('end', () => resolve(records));
    parser.write(window);
    if (last) parser.end();
    else setImmediate(() => resolve(records));
  });
}
