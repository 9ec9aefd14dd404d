import { AsyncLocalStorage } from 'node:async_hooks';
import { decodePDFRawStream, PDFContext, PDFName, type PDFObject, PDFParser, PDFRawStream, type PDFRef } from 'pdf-lib';
import { INCOMPLETE_FILE, unreadable } from './refusal.js';

/**
 * A PDF as pdf-lib parsed it, with what the checks need beyond pdf-lib's document: every object the parser read,
 * including those a later object of the same number replaced (a reader that follows the cross-reference section may
 * read the replaced one), and the trailers' entries; and where in the file each indirect object and trailer it read
 * starts, so that bytes which only look like one (inside a string, a comment or a stream) can be found.
 */
export interface ParsedPdf {
  context: PDFContext;
  /** Every object the parser assigned, in order, and every value a trailer gave `Root`, `Info`, `Encrypt` or `ID`. */
  objects: PDFObject[];
  /** Offsets of the indirect objects the parser read (where their `N G obj` starts). */
  objectStarts: ReadonlySet<number>;
  /** Offsets of the cross-reference tables' trailers it read (where their `trailer` keyword starts). */
  trailerStarts: ReadonlySet<number>;
}

/** Objects per parsing step: pdf-lib yields to the event loop between steps, so a large PDF never blocks it long. */
const OBJECTS_PER_TICK = 2000;

/** pdf-lib's parser as this module drives it: the private members the recording wraps. */
interface ParserInternals {
  bytes: { offset(): number };
  context: PDFContext;
  parseIndirectObject(): Promise<PDFRef>;
  maybeParseTrailerDict(): void;
}

/**
 * Parses `bytes` with pdf-lib (invalid objects are errors, not warnings), under a budget of decoded bytes, recording
 * what `ParsedPdf` says. Refuses a PDF pdf-lib cannot parse and one whose structure inflates past the budget.
 */
export async function parsePdf(bytes: Buffer, maxDecodedBytes: number): Promise<ParsedPdf> {
  const parser = PDFParser.forBytesWithOptions(bytes, OBJECTS_PER_TICK, true);
  const recorded = record(parser as unknown as ParserInternals, bytes);
  const budget = { remaining: maxDecodedBytes };
  let failure: unknown;
  let context: PDFContext | undefined;
  try {
    context = await decodeBudget.run(budget, () => parser.parseDocument());
  } catch (error) {
    failure = error;
  }
  // pdf-lib catches an error inside an object and reports the object as invalid instead: the budget tells.
  if (budget.remaining < 0) {
    throw unreadable('The PDF holds far more data than its size suggests: save it again and send that copy', failure);
  }
  if (context === undefined) throw unreadable(INCOMPLETE_FILE, failure);
  return { context, ...recorded };
}

const TRAILER_ENTRIES = ['Root', 'Info', 'Encrypt', 'ID'] as const;

/**
 * Wraps the members of this one parser (not pdf-lib's classes) that read an indirect object, read a trailer and
 * store an object, so that each leaves a record.
 */
function record(parser: ParserInternals, bytes: Buffer): Omit<ParsedPdf, 'context'> {
  const objects: PDFObject[] = [];
  const objectStarts = new Set<number>();
  const trailerStarts = new Set<number>();
  const { context } = parser;

  const assign = context.assign.bind(context);
  context.assign = (ref, object) => {
    objects.push(object);
    assign(ref, object);
  };
  // Both a trailer and a cross-reference stream's dictionary set trailerInfo; a direct dictionary there (a catalog
  // written into the trailer) is no indirect object, so it is recorded here.
  let trailerInfo = context.trailerInfo;
  let trailersRead = 0;
  Object.defineProperty(context, 'trailerInfo', {
    get: () => trailerInfo,
    set: (value: PDFContext['trailerInfo']) => {
      trailerInfo = value;
      trailersRead += 1;
      for (const entry of TRAILER_ENTRIES) {
        const object = value[entry];
        if (object !== undefined) objects.push(object);
      }
    },
  });

  const parseIndirectObject = parser.parseIndirectObject.bind(parser);
  parser.parseIndirectObject = () => {
    objectStarts.add(parser.bytes.offset());
    return parseIndirectObject();
  };
  const maybeParseTrailerDict = parser.maybeParseTrailerDict.bind(parser);
  parser.maybeParseTrailerDict = () => {
    const start = parser.bytes.offset();
    const before = trailersRead;
    maybeParseTrailerDict();
    if (trailersRead > before) trailerStarts.add(afterWhitespaceAndComments(bytes, start));
  };
  return { objects, objectStarts, trailerStarts };
}

const PDF_WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);

/** The offset of the first byte from `start` on that is neither whitespace nor in a comment, as pdf-lib skips them. */
function afterWhitespaceAndComments(bytes: Buffer, start: number): number {
  let pos = start;
  for (;;) {
    while (pos < bytes.length && PDF_WHITESPACE.has(bytes[pos] as number)) pos += 1;
    if (bytes[pos] !== 0x25) return pos; // %
    while (pos < bytes.length && bytes[pos] !== 0x0a && bytes[pos] !== 0x0d) pos += 1;
  }
}

/**
 * pdf-lib decodes names' `#xx` escapes in upper case only (`/#4A` but not `/#4a`, which the PDF specification allows
 * as well and every reader decodes): patches/pdf-lib@1.17.1.patch makes it decode both. Without the patch, a name
 * such as `/#4aavaScript` would escape every check, so the package refuses to load.
 */
if (PDFName.of('#4aavaScript') !== PDFName.of('JavaScript')) {
  throw new Error('pdf-lib decodes only upper-case #xx escapes in names: patches/pdf-lib@1.17.1.patch is not applied');
}

/**
 * The decode budget. pdf-lib decodes object and cross-reference streams fully in memory while it loads, with no
 * limit: a 10 MB PDF can inflate to gigabytes. Every pdf-lib decoder grows its buffer through one method of their
 * common base class; it is wrapped once so that, inside a check, growth beyond the check's remaining budget throws.
 * Outside a check (no budget in the async context) decoding is unchanged. pdf-lib is pinned, and the wrapping fails
 * loudly at import if the base class changes.
 */
const decodeBudget = new AsyncLocalStorage<{ remaining: number }>();

class DecodeBudgetExceeded extends Error {}

interface DecodeStreamBase {
  buffer: Uint8Array;
  minBufferLength: number;
  ensureBuffer(requested: number): Uint8Array;
}

function wrapDecoderBufferGrowth(): void {
  const probe = decodePDFRawStream(
    PDFRawStream.of(PDFContext.create().obj({ Filter: 'ASCIIHexDecode' }), new Uint8Array(0)),
  );
  let base: DecodeStreamBase | null = Object.getPrototypeOf(probe);
  while (base !== null && !Object.hasOwn(base, 'ensureBuffer')) base = Object.getPrototypeOf(base);
  if (base === null) throw new Error('pdf-lib decoders no longer grow buffers through ensureBuffer');
  const ensureBuffer = base.ensureBuffer;
  base.ensureBuffer = function (this: DecodeStreamBase, requested: number): Uint8Array {
    const budget = decodeBudget.getStore();
    if (budget !== undefined && requested > this.buffer.byteLength) {
      // The size ensureBuffer is about to allocate (the first power of two from minBufferLength that holds it).
      let size = this.minBufferLength;
      while (size < requested) size *= 2;
      budget.remaining -= size - this.buffer.byteLength;
      if (budget.remaining < 0) throw new DecodeBudgetExceeded();
    }
    return ensureBuffer.call(this, requested);
  };
}

wrapDecoderBufferGrowth();
