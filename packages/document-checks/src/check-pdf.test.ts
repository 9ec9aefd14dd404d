import { describe, expect, it } from 'vitest';
import { expectRefused } from '../test/refusals.js';
import { checkDocumentFile } from './index.js';
import { encryptedPdf, half, pdf, pdfWithLaunchAction, pdfWithPadding, zipArchive } from './testing/index.js';

describe('PDFs', () => {
  it('accepts a PDF of 1 page and stores it as sent', async () => {
    const file = await pdf(1);
    const checked = await checkDocumentFile(file, 'image_or_pdf');
    expect(checked).toEqual({
      contentType: 'application/pdf',
      extension: 'pdf',
      bytes: file,
      size: file.length,
      pages: 1,
    });
  });

  it('accepts 20 pages and refuses 21', async () => {
    await expect(checkDocumentFile(await pdf(20), 'image_or_pdf')).resolves.toMatchObject({ pages: 20 });
    const refusal = await expectRefused(
      checkDocumentFile(await pdf(21), 'image_or_pdf'),
      'too_many_pages',
      /21 pages; at most 20/,
    );
    expect(refusal.status).toBe(400);
  });

  it('refuses a PDF cut in half, and one cut just before its end marker', async () => {
    const file = await pdf(3);
    await expectRefused(checkDocumentFile(half(file), 'image_or_pdf'), 'unreadable', /incomplete or damaged/);
    await expectRefused(checkDocumentFile(file.subarray(0, file.lastIndexOf('%%EOF')), 'image_or_pdf'), 'unreadable');
  });

  it('refuses a PDF whose objects are damaged although it ends properly', async () => {
    const file = await pdf(1);
    const damaged = Buffer.concat([
      file.subarray(0, 20),
      Buffer.from('1 0 obj\n<< /Type /Catalog /Pages 2 0 R', 'latin1'),
      file.subarray(20),
    ]);
    await expectRefused(checkDocumentFile(damaged, 'image_or_pdf'), 'unreadable');
  });

  it('refuses a PDF without pages', async () => {
    await expectRefused(checkDocumentFile(await pdf(0), 'image_or_pdf'), 'unreadable', /no pages/);
  });

  it('refuses an encrypted PDF', async () => {
    await expectRefused(
      checkDocumentFile(await encryptedPdf(), 'image_or_pdf'),
      'unreadable',
      /password-protected or encrypted/,
    );
  });

  it('refuses a PDF with JavaScript, a launch action or an attached file', async () => {
    const withScript = await pdf(1, (document) => document.addJavaScript('greet', 'app.alert("hi")'));
    const withAttachment = await pdf(1, (document) =>
      document.attach(Buffer.from('MZ'), 'run.exe', { mimeType: 'application/octet-stream' }),
    );
    for (const file of [withScript, await pdfWithLaunchAction(), withAttachment]) {
      await expectRefused(
        checkDocumentFile(file, 'image_or_pdf'),
        'unreadable',
        /^The PDF contains (scripts|actions or links .*|attached files), which a document sent for verification may not/,
      );
    }
  });

  it('stops decoding a PDF whose compressed structure would exceed the decode budget', async () => {
    const file = await pdfWithPadding(2 * 1024 * 1024);
    expect(file.length).toBeLessThan(100 * 1024); // compressed in an object stream
    await expect(checkDocumentFile(file, 'image_or_pdf')).resolves.toMatchObject({ pages: 1 });
    await expectRefused(
      checkDocumentFile(file, 'image_or_pdf', { maxPdfDecodedBytes: 1024 * 1024 }),
      'unreadable',
      /far more data than its size suggests/,
    );
  });

  it('checks PDFs at once without mixing their budgets', async () => {
    const [small, large] = [await pdf(1), await pdfWithPadding(2 * 1024 * 1024)];
    const results = await Promise.allSettled([
      checkDocumentFile(large, 'image_or_pdf', { maxPdfDecodedBytes: 1024 * 1024 }),
      checkDocumentFile(small, 'image_or_pdf', { maxPdfDecodedBytes: 1024 * 1024 }),
      checkDocumentFile(large, 'image_or_pdf'),
    ]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
  });

  it('refuses a PDF with a ZIP archive or a web page appended', async () => {
    const file = await pdf(1);
    await expectRefused(
      checkDocumentFile(Buffer.concat([file, zipArchive('a.txt', 'x')]), 'image_or_pdf'),
      'unreadable',
      /archive/,
    );
    await expectRefused(
      checkDocumentFile(Buffer.concat([file, Buffer.from('<html></html>')]), 'image_or_pdf'),
      'unreadable',
    );
  });
});
