import type { Database, Receipt } from '@platform/db';
import { documentNumberSeries, receipts } from '@platform/db/schema';
import { asc, eq } from 'drizzle-orm';

/** Every receipt issued, by number. */
export async function allReceipts(db: Database): Promise<Receipt[]> {
  return db.select().from(receipts).orderBy(asc(receipts.sequence));
}

/** The last receipt number taken (0 before the first). */
export async function lastReceiptNumber(db: Database): Promise<number> {
  const [series] = await db
    .select({ last: documentNumberSeries.lastNumber })
    .from(documentNumberSeries)
    .where(eq(documentNumberSeries.series, 'receipt'));
  return series?.last ?? 0;
}

/** A document page's text (a receipt's, an invoice's) without its markup, spaces collapsed. */
export function textOf(html: string): string {
  return html
    .replace(/<style>[\s\S]*?<\/style>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

/**
 * The text of a PDF, as a reader extracts it (pdf.js): each page's text items in order, a space between items and a
 * line break where pdf.js sees one.
 */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // verbosity 0: pdf.js would warn that it draws no glyphs here (no standard font data), which text extraction needs not.
  const pdf = await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let number = 1; number <= pdf.numPages; number += 1) {
    const content = await (await pdf.getPage(number)).getTextContent();
    pages.push(
      content.items
        .map((item) => ('str' in item ? `${item.str}${item.hasEOL ? '\n' : ' '}` : ''))
        .join('')
        .replace(/ +/g, ' '),
    );
  }
  await pdf.destroy();
  return pages.join('\n');
}
