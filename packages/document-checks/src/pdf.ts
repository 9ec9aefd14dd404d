import { AsyncLocalStorage } from 'node:async_hooks';
import {
  decodePDFRawStream,
  PDFArray,
  PDFContext,
  PDFDict,
  PDFDocument,
  PDFName,
  type PDFObject,
  PDFRawStream,
} from 'pdf-lib';
import { DocumentFileRefusal, INCOMPLETE_FILE, unreadable } from './refusal.js';
import { endsWithPdfEofMarker } from './structure.js';

export interface PdfLimits {
  maxPages: number;
  maxDecodedBytes: number;
}

/**
 * Checks a PDF's structure and counts its pages with pdf-lib, under a budget of decoded bytes. Refuses a PDF cut
 * short or with data after its end, one pdf-lib cannot parse (invalid objects are errors, not warnings), an
 * encrypted one, one without pages or with more than `maxPages`, and one with active content.
 */
export async function checkPdf(bytes: Buffer, limits: PdfLimits): Promise<{ pages: number }> {
  if (!endsWithPdfEofMarker(bytes)) throw unreadable(INCOMPLETE_FILE);
  const document = await loadPdf(bytes, limits.maxDecodedBytes);
  refuseActiveContent(document.context);
  let pages: number;
  try {
    pages = document.getPageCount();
  } catch (error) {
    throw unreadable(INCOMPLETE_FILE, error);
  }
  if (pages === 0) throw unreadable('The PDF has no pages');
  if (pages > limits.maxPages) {
    throw new DocumentFileRefusal(
      'too_many_pages',
      `The PDF has ${pages} pages; at most ${limits.maxPages} are accepted: send only the pages of the document`,
    );
  }
  return { pages };
}

/** Objects per parsing step: pdf-lib yields to the event loop between steps, so a large PDF never blocks it long. */
const OBJECTS_PER_TICK = 2000;

async function loadPdf(bytes: Buffer, maxDecodedBytes: number): Promise<PDFDocument> {
  const budget = { remaining: maxDecodedBytes };
  let document: PDFDocument | undefined;
  let failure: unknown;
  try {
    // Encryption is read from the trailer below: pdf-lib's own EncryptedPDFError fails `instanceof` (ES5 classes).
    document = await decodeBudget.run(budget, () =>
      PDFDocument.load(bytes, {
        ignoreEncryption: true,
        updateMetadata: false,
        throwOnInvalidObject: true,
        parseSpeed: OBJECTS_PER_TICK,
      }),
    );
  } catch (error) {
    failure = error;
  }
  // pdf-lib catches an error inside an object and reports the object as invalid instead: the budget tells.
  if (budget.remaining < 0) {
    throw unreadable('The PDF holds far more data than its size suggests: save it again and send that copy', failure);
  }
  if (document === undefined) throw unreadable(INCOMPLETE_FILE, failure);
  if (document.isEncrypted) {
    throw unreadable('The PDF is password-protected or encrypted: send a copy without a password');
  }
  return document;
}

/**
 * Names that make a PDF run or carry something besides its pages: JavaScript (actions, the document's name tree,
 * `/JS`), launch and import actions, attached files, XFA forms (which hold scripts) and rich media (Flash,
 * video). An identity document needs none of them.
 */
const ACTIVE_CONTENT = new Set(
  [
    'JS',
    'JavaScript',
    'Launch',
    'ImportData',
    'EmbeddedFile',
    'EmbeddedFiles',
    'XFA',
    'RichMedia',
    'RichMediaExecute',
  ].map((name) => PDFName.of(name)),
);

/**
 * Looks at every name in every object the PDF holds (keys and values of dictionaries, arrays, stream dictionaries;
 * objects in object streams included, the streams' contents not), without following references: each referenced
 * object is one of those enumerated.
 */
function refuseActiveContent(context: PDFContext): void {
  const pending: PDFObject[] = context.enumerateIndirectObjects().map(([, object]) => object);
  for (let object = pending.pop(); object !== undefined; object = pending.pop()) {
    if (object instanceof PDFName) {
      if (ACTIVE_CONTENT.has(object)) {
        throw unreadable(
          'The PDF contains scripts, actions that open other files, or attached files: send a plain copy',
        );
      }
    } else if (object instanceof PDFDict) {
      for (const [key, value] of object.entries()) pending.push(key, value);
    } else if (object instanceof PDFArray) {
      pending.push(...object.asArray());
    } else if (object instanceof PDFRawStream) {
      pending.push(object.dict);
    }
  }
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
