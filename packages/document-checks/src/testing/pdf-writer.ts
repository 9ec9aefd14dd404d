import { deflateSync } from 'node:zlib';

/**
 * PDFs written byte by byte, for what pdf-lib will not write: names spelled with escapes, objects a reader finds only
 * through the cross-reference section, an object stream that does not say it is one. The parts are laid out in
 * order; the cross-reference section points at the parts that define an object (the last one, when several do).
 */
export interface PdfPart {
  bytes: string | Buffer;
  /** The objects this part starts, each at `offset` bytes into the part. */
  defines?: ReadonlyArray<{ number: number; offset: number }>;
  /** The objects this part holds compressed (an object stream), by their index in it. */
  holds?: ReadonlyArray<{ number: number; index: number }>;
}

/** Bytes that are not an object of the cross-reference section: a comment, a second copy of an object, junk. */
export const text = (bytes: string | Buffer): PdfPart => ({ bytes });

/** `number 0 obj body endobj`. */
export function object(number: number, body: string): PdfPart {
  return { bytes: `${number} 0 obj\n${body}\nendobj\n`, defines: [{ number, offset: 0 }] };
}

/** A stream object; `compress` deflates its data (FlateDecode). */
export function streamObject(
  number: number,
  dictionary: string,
  data: string | Buffer,
  { compress = false }: { compress?: boolean } = {},
): PdfPart {
  const raw = Buffer.from(data as string, typeof data === 'string' ? 'latin1' : undefined);
  const stored = compress ? deflateSync(raw) : raw;
  const filter = compress ? ' /Filter /FlateDecode' : '';
  return {
    bytes: Buffer.concat([
      Buffer.from(`${number} 0 obj\n<< ${dictionary} /Length ${stored.length}${filter} >>\nstream\n`, 'latin1'),
      stored,
      Buffer.from('\nendstream\nendobj\n', 'latin1'),
    ]),
    defines: [{ number, offset: 0 }],
  };
}

/**
 * An object stream holding `objects`, deflated. `type` is what its dictionary says it is: `/Type /ObjStm` unless
 * told otherwise (readers that find objects through the cross-reference section never look).
 */
export function objectStream(
  number: number,
  objects: ReadonlyArray<readonly [number, string]>,
  { type = '/Type /ObjStm' }: { type?: string } = {},
): PdfPart {
  let offset = 0;
  const index: string[] = [];
  const bodies: string[] = [];
  for (const [objectNumber, body] of objects) {
    index.push(`${objectNumber} ${offset}`);
    bodies.push(`${body}\n`);
    offset += Buffer.byteLength(`${body}\n`, 'latin1');
  }
  const header = `${index.join(' ')}\n`;
  const part = streamObject(
    number,
    `${type} /N ${objects.length} /First ${Buffer.byteLength(header, 'latin1')}`,
    header + bodies.join(''),
    { compress: true },
  );
  return { ...part, holds: objects.map(([objectNumber], position) => ({ number: objectNumber, index: position })) };
}

type Entry = { kind: 'offset'; offset: number } | { kind: 'compressed'; stream: number; index: number };

export interface PdfLayout {
  /** The catalog's object number. */
  root: number;
  /** More trailer entries, written as they are (`/Info 9 0 R`). */
  trailer?: string;
  /**
   * Where the trailer's `/Root` points: to `root` by default; a dictionary written here instead is the catalog
   * itself, in the trailer.
   */
  rootEntry?: string;
}

/**
 * The file: header, parts, then a cross-reference table and trailer, or a cross-reference stream when a part holds
 * compressed objects (only a stream can point into an object stream).
 */
export function writePdf(parts: readonly PdfPart[], layout: PdfLayout): Buffer {
  const chunks: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let position = chunks[0]!.length;
  const entries = new Map<number, Entry>();
  let compressed = false;
  for (const part of parts) {
    const bytes = Buffer.from(part.bytes as string, typeof part.bytes === 'string' ? 'latin1' : undefined);
    for (const { number, offset } of part.defines ?? [])
      entries.set(number, { kind: 'offset', offset: position + offset });
    const stream = part.defines?.[0]?.number;
    for (const { number, index } of part.holds ?? []) {
      entries.set(number, { kind: 'compressed', stream: stream as number, index });
      compressed = true;
    }
    chunks.push(bytes);
    position += bytes.length;
  }
  const root = layout.rootEntry ?? `${layout.root} 0 R`;
  const trailer = `/Root ${root}${layout.trailer === undefined ? '' : ` ${layout.trailer}`}`;
  const xrefAt = position;
  if (!compressed) {
    const size = Math.max(0, ...entries.keys()) + 1;
    const lines = ['xref', `0 ${size}`, '0000000000 65535 f '];
    for (let number = 1; number < size; number += 1) {
      const entry = entries.get(number);
      lines.push(
        entry?.kind === 'offset' ? `${String(entry.offset).padStart(10, '0')} 00000 n ` : '0000000000 00000 f ',
      );
    }
    chunks.push(
      Buffer.from(
        `${lines.join('\n')}\ntrailer\n<< /Size ${size} ${trailer} >>\nstartxref\n${xrefAt}\n%%EOF\n`,
        'latin1',
      ),
    );
    return Buffer.concat(chunks);
  }
  const xrefNumber = Math.max(0, ...entries.keys()) + 1;
  entries.set(xrefNumber, { kind: 'offset', offset: xrefAt });
  const size = xrefNumber + 1;
  const rows = Buffer.alloc(size * 7);
  for (let number = 0; number < size; number += 1) {
    const entry = entries.get(number);
    const row = number * 7;
    if (entry?.kind === 'offset') {
      rows[row] = 1;
      rows.writeUInt32BE(entry.offset, row + 1);
    } else if (entry?.kind === 'compressed') {
      rows[row] = 2;
      rows.writeUInt32BE(entry.stream, row + 1);
      rows.writeUInt16BE(entry.index, row + 5);
    } else {
      rows.writeUInt16BE(number === 0 ? 0xffff : 0, row + 5);
    }
  }
  chunks.push(
    Buffer.from(
      `${xrefNumber} 0 obj\n<< /Type /XRef /Size ${size} /W [1 4 2] ${trailer} /Length ${rows.length} >>\nstream\n`,
      'latin1',
    ),
    rows,
    Buffer.from(`\nendstream\nendobj\nstartxref\n${xrefAt}\n%%EOF\n`, 'latin1'),
  );
  return Buffer.concat(chunks);
}

/** What the parts of a one-page document say beyond the minimum: catalog and page entries, more objects. */
export interface PlainDocument {
  catalog?: string;
  page?: string;
}

/**
 * The parts of a one-page document with a line of text: catalog 1, page tree 2, page 3, its content 4, its font 5.
 * Further objects start at 6.
 */
export function documentParts({ catalog = '', page = '' }: PlainDocument = {}): PdfPart[] {
  return [
    object(1, `<< /Type /Catalog /Pages 2 0 R ${catalog} >>`),
    object(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    object(
      3,
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> ${page} >>`,
    ),
    streamObject(4, '', 'BT /F1 24 Tf 72 720 Td (Certificate of incorporation) Tj ET'),
    object(5, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
  ];
}

/** A one-page document written by hand, with `more` objects after it. */
export function handWrittenPdf(document: PlainDocument = {}, ...more: PdfPart[]): Buffer {
  return writePdf([...documentParts(document), ...more], { root: 1 });
}
