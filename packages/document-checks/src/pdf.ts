import { PDFCatalog, type PDFContext, PDFPageLeaf } from 'pdf-lib';
import { refuseActiveContent } from './pdf-active-content.js';
import { refuseHiddenObjects } from './pdf-hidden-objects.js';
import { parsePdf } from './pdf-parse.js';
import { DocumentFileRefusal, INCOMPLETE_FILE, unreadable } from './refusal.js';
import { endsWithPdfEofMarker } from './structure.js';

export interface PdfLimits {
  maxPages: number;
  maxDecodedBytes: number;
}

/**
 * Checks a PDF's structure and counts its pages with pdf-lib, under a budget of decoded bytes. Refuses a PDF cut
 * short or with data after its end, one pdf-lib cannot parse (invalid objects are errors, not warnings), one with
 * objects hidden from the parser, an encrypted one, one with active content anywhere, and one without pages or with
 * more than `maxPages`.
 */
export async function checkPdf(bytes: Buffer, limits: PdfLimits): Promise<{ pages: number }> {
  if (!endsWithPdfEofMarker(bytes)) throw unreadable(INCOMPLETE_FILE);
  const parsed = await parsePdf(bytes, limits.maxDecodedBytes);
  refuseHiddenObjects(bytes, parsed);
  const { context } = parsed;
  if (context.lookup(context.trailerInfo.Encrypt) !== undefined) {
    throw unreadable('The PDF is password-protected or encrypted: send a copy without a password');
  }
  refuseActiveContent(parsed.objects);
  const pages = pageCount(context);
  if (pages === 0) throw unreadable('The PDF has no pages');
  if (pages > limits.maxPages) {
    throw new DocumentFileRefusal(
      'too_many_pages',
      `The PDF has ${pages} pages; at most ${limits.maxPages} are accepted: send only the pages of the document`,
    );
  }
  return { pages };
}

/** The leaves of the catalog's page tree, as pdf-lib's PDFDocument counts them. */
function pageCount(context: PDFContext): number {
  try {
    const catalog = context.lookup(context.trailerInfo.Root);
    if (!(catalog instanceof PDFCatalog)) throw new Error('the trailer names no catalog');
    let pages = 0;
    catalog.Pages().traverse((node) => {
      if (node instanceof PDFPageLeaf) pages += 1;
    });
    return pages;
  } catch (error) {
    throw unreadable(INCOMPLETE_FILE, error);
  }
}
