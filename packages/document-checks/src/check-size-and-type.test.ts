import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { expectRefused } from '../test/refusals.js';
import { checkDocumentFile, DEFAULT_DOCUMENT_FILE_LIMITS } from './index.js';
import { blackPng, jpeg, pdf, png, pngChunk, webp, withPngChunks, zipArchive } from './testing/index.js';

describe('image_too_small', () => {
  it.each([
    ['JPEG 599x800', () => jpeg(599, 800)],
    ['JPEG 800x599', () => jpeg(800, 599)],
    ['PNG 599x800', () => png(599, 800)],
    ['WebP 599x800', () => webp(599, 800)],
  ])('refuses a %s', async (_, make) => {
    const refusal = await expectRefused(
      checkDocumentFile(await make(), 'image'),
      'image_too_small',
      /at least 600 pixels/,
    );
    expect(refusal.status).toBe(400);
  });

  it('takes another minimum from the limits', async () => {
    await expect(checkDocumentFile(await png(300, 300), 'image', { minImageShortSide: 300 })).resolves.toMatchObject({
      width: 300,
    });
  });
});

describe('too_large', () => {
  it('refuses a file over 10 MB before looking inside it', async () => {
    const body = Buffer.alloc(11 * 1024 * 1024);
    // Not even an image: the size alone decides, so nothing is parsed.
    const refusal = await expectRefused(checkDocumentFile(body, 'image'), 'too_large', /larger than 10 MB/);
    expect(refusal.status).toBe(413);
  });

  it('takes exactly the limit, not a byte more', async () => {
    const image = await png(600, 800);
    await expect(checkDocumentFile(image, 'image', { maxBytes: image.length })).resolves.toBeDefined();
    await expectRefused(checkDocumentFile(image, 'image', { maxBytes: image.length - 1 }), 'too_large');
  });

  it('refuses an image of more pixels than the limit, saying what is accepted', async () => {
    await expectRefused(
      checkDocumentFile(await png(1000, 1000), 'image', { maxImagePixels: 999_999 }),
      'too_large',
      /^The image is 1000x1000 pixels; at most 999,999 pixels \(1 megapixels\) are accepted: send a smaller copy$/,
    );
  });

  it('refuses a 30000x30000 PNG by its header, before decoding: one whose image data is cut short is 413 too', async () => {
    const whole = blackPng(30_000, 30_000);
    expect(whole.length).toBeLessThan(DEFAULT_DOCUMENT_FILE_LIMITS.maxBytes);
    for (const image of [whole, blackPng(30_000, 30_000, { imageData: false })]) {
      await expectRefused(
        checkDocumentFile(image, 'image'),
        'too_large',
        /^The image is 30000x30000 pixels; at most 100,000,000/,
      );
    }
  });

  it('defaults to the limits of the issue', () => {
    expect(DEFAULT_DOCUMENT_FILE_LIMITS).toMatchObject({
      maxBytes: 10 * 1024 * 1024,
      minImageShortSide: 600,
      maxPdfPages: 20,
    });
  });
});

describe('unsupported_media_type: by content, never by name', () => {
  it.each([
    [
      'GIF',
      () =>
        sharp({ create: { width: 600, height: 800, channels: 3, background: '#888' } })
          .gif()
          .toBuffer(),
    ],
    [
      'TIFF',
      () =>
        sharp({ create: { width: 600, height: 800, channels: 3, background: '#888' } })
          .tiff()
          .toBuffer(),
    ],
    ['animated PNG', async () => withPngChunks(await png(600, 800), pngChunk('acTL', Buffer.alloc(8)))],
    ['BMP', async () => Buffer.concat([Buffer.from('BM', 'latin1'), Buffer.alloc(64)])],
    ['SVG', async () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800"></svg>')],
    ['HTML', async () => Buffer.from('<!doctype html><html><script>alert(1)</script></html>')],
    [
      'Windows executable',
      async () => Buffer.concat([Buffer.from('MZ\x90\0\x03\0\0\0\x04\0\0\0\xff\xff', 'latin1'), Buffer.alloc(100)]),
    ],
    ['ZIP', async () => zipArchive('id.jpg', 'not really')],
    ['empty file', async () => Buffer.alloc(0)],
  ])('refuses a %s', async (_, make) => {
    const refusal = await expectRefused(
      checkDocumentFile(await make(), 'image_or_pdf'),
      'unsupported_media_type',
      /^The file must be a PDF or a JPEG, PNG or WebP image$/,
    );
    expect(refusal.status).toBe(415);
  });

  it('refuses a PDF where only images are taken', async () => {
    await expectRefused(
      checkDocumentFile(await pdf(1), 'image'),
      'unsupported_media_type',
      /^The file must be a JPEG, PNG or WebP image$/,
    );
  });
});
