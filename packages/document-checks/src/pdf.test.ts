import { PDFName } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { activeContentSeenByPdfJs } from '../test/pdf-reader.js';
import { checkDocumentFile, DocumentFileRefusal } from './index.js';
import {
  activePdfs,
  documentParts,
  featureActivePdfs,
  handWrittenPdf,
  hiddenActivePdfs,
  jpeg,
  object,
  pdf,
  pdfWithPhoto,
  spelledActivePdfs,
  streamObject,
  text,
  writePdf,
} from './testing/index.js';

async function refusalOf(bytes: Buffer): Promise<DocumentFileRefusal> {
  const error = await checkDocumentFile(bytes, 'image_or_pdf').then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof DocumentFileRefusal)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

const ACTIVE_CONTENT =
  /^The PDF contains (scripts|actions or links .*|attached files|audio, video or 3D content|an XFA form), which a document sent for verification may not: send a plain copy \(print it to PDF, or scan the paper\)$/;
const HIDDEN = /^The PDF has objects hidden where only some readers find them: send a plain copy/;

describe('PDFs with active content are refused, however their names are spelled', () => {
  it.each(spelledActivePdfs().map((file) => [file.name, file.bytes] as const))('%s', async (_, bytes) => {
    const refusal = await refusalOf(bytes);
    expect(refusal).toMatchObject({ reason: 'unreadable', status: 400 });
    expect(refusal.message).toMatch(ACTIVE_CONTENT);
  });
});

describe('every action, trigger, attachment, medium and XFA form is refused', () => {
  it.each(featureActivePdfs().map((file) => [file.name, file.bytes] as const))('%s', async (_, bytes) => {
    const refusal = await refusalOf(bytes);
    expect(refusal).toMatchObject({ reason: 'unreadable', status: 400 });
    expect(refusal.message).toMatch(ACTIVE_CONTENT);
  });

  const named = (part: string) => {
    const file = activePdfs().find((candidate) => candidate.name.includes(part));
    if (file === undefined) throw new Error(`no fixture named like ${part}`);
    return file.bytes;
  };
  it.each([
    ['a script', '/#4aavaScript and /#4aS', /contains scripts/],
    ['a link', 'a link to a web page', /actions or links/],
    ['an attachment', '/E#6dbeddedFiles', /attached files/],
    ['a 3D annotation', '(/3D)', /audio, video or 3D/],
    ['an XFA form', '(/XFA)', /an XFA form/],
  ])('names what it found: %s', async (_, part, message) => {
    expect((await refusalOf(named(part))).message).toMatch(message);
  });
});

describe('active content is refused wherever a reader would find it', () => {
  it.each(hiddenActivePdfs().map((file) => [file.name, file.bytes] as const))('%s', async (_, bytes) => {
    const refusal = await refusalOf(bytes);
    expect(refusal).toMatchObject({ reason: 'unreadable', status: 400 });
    expect(refusal.message).toMatch(new RegExp(`${ACTIVE_CONTENT.source}|${HIDDEN.source}`));
  });
});

describe('the search for hidden objects', () => {
  it('takes a comment of percent signs after a number pair in one pass (a pattern that backtracks never ends)', async () => {
    const bytes = handWrittenPdf({}, text(`% 1 0 ${'%'.repeat(80)}\n`));
    await expect(checkDocumentFile(bytes, 'image_or_pdf')).resolves.toMatchObject({ pages: 1 });
  });

  it('finds a header whose parts are split by comments and line breaks', async () => {
    const hidden = streamObject(6, '', '1 %c\n 0\r\n%c\nobj << /Type /Catalog >> endobj');
    await expect(refusalOf(handWrittenPdf({}, hidden))).resolves.toMatchObject({
      message: expect.stringMatching(HIDDEN),
    });
  });
});

describe('pdf.js, a second parser, agrees', () => {
  // The refused files are real: Firefox's reader would run, open or show what each of these holds.
  it.each(
    activePdfs()
      .filter((file) => file.pdfJsShows)
      .map((file) => [file.name, file.bytes] as const),
  )('finds the active content of %s', async (_, bytes) => {
    expect(await activeContentSeenByPdfJs(bytes)).not.toEqual([]);
  });

  // And what is accepted has none of it for pdf.js either.
  it.each([
    ['a pdf-lib PDF of 3 pages (its objects in a compressed object stream)', () => pdf(3)],
    [
      'a pdf-lib PDF holding a photo (its compressed bytes searched for hidden objects too)',
      async () => pdfWithPhoto(await jpeg(1200, 1600, { quality: 80 })),
    ],
    ['a hand-written PDF', async () => handWrittenPdf()],
    [
      'a PDF whose harmless names are spelled with lower-case escapes (/Cata#6c#6fg, /#4dediaBox, /Helv#65tica)',
      async () =>
        writePdf(
          [
            object(1, '<< /Type /Cata#6c#6fg /Pages 2 0 R >>'),
            object(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
            object(
              3,
              '<< /Type /Page /Parent 2 0 R /#4dediaBox [0 0 595 842] /C#6fntents 4 0 R /Resources << /F#6fnt << /F1 5 0 R >> >> >>',
            ),
            streamObject(4, '', 'BT /F1 24 Tf 72 720 Td (Certificate) Tj ET'),
            object(5, '<< /Type /Font /Subtype /Type1 /BaseFont /Helv#65tica >>'),
          ],
          { root: 1 },
        ),
    ],
    [
      'a PDF with a link to one of its own pages (/Dest) and a note',
      async () =>
        writePdf(
          [
            ...documentParts({ page: '/Annots [6 0 R 7 0 R]' }),
            object(6, '<< /Type /Annot /Subtype /Link /Rect [72 72 272 172] /Dest [3 0 R /Fit] >>'),
            object(7, '<< /Type /Annot /Subtype /Text /Rect [300 72 320 92] /Contents (Checked) >>'),
          ],
          { root: 1 },
        ),
    ],
  ])('finds nothing active in what is accepted: %s', async (_, make) => {
    const bytes = await make();
    await expect(checkDocumentFile(bytes, 'image_or_pdf')).resolves.toMatchObject({ contentType: 'application/pdf' });
    expect(await activeContentSeenByPdfJs(bytes)).toEqual([]);
  });
});

describe('pdf-lib', () => {
  it('decodes #xx escapes in names in either case (patches/pdf-lib@1.17.1.patch)', () => {
    expect(PDFName.of('#4aavaScript')).toBe(PDFName.of('JavaScript'));
    expect(PDFName.of('E#6dbeddedFiles')).toBe(PDFName.of('EmbeddedFiles'));
    expect(PDFName.of('#4caunch')).toBe(PDFName.of('#4Caunch'));
  });
});
