import { imageSize } from 'image-size';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  checkDocumentFile,
  checkImageFile,
  DEFAULT_DOCUMENT_FILE_LIMITS,
  DocumentFileRefusal,
  type DocumentFileRefusalReason,
} from './index.js';
import {
  blackPng,
  COMMENT_SEGMENT,
  contains,
  EMPTY_ZIP,
  encryptedPdf,
  exifSegment,
  half,
  IPTC_SEGMENT,
  jpeg,
  jpegSegment,
  pdf,
  pdfWithLaunchAction,
  pdfWithPadding,
  png,
  pngChunk,
  webp,
  withJpegSegments,
  withPngChunks,
  withPngChunksAtEnd,
  XMP_SEGMENT,
  zipArchive,
} from './testing/index.js';

async function refusalOf(promise: Promise<unknown>): Promise<DocumentFileRefusal> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof DocumentFileRefusal)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

async function expectRefused(
  promise: Promise<unknown>,
  reason: DocumentFileRefusalReason,
  message?: RegExp,
): Promise<DocumentFileRefusal> {
  const refusal = await refusalOf(promise);
  expect(refusal.reason).toBe(reason);
  if (message !== undefined) expect(refusal.message).toMatch(message);
  return refusal;
}

/** Mean absolute difference of two images' pixels, 0-255 per channel. */
async function meanDifference(a: Buffer, b: Buffer): Promise<number> {
  const [left, right] = await Promise.all([a, b].map((image) => sharp(image).removeAlpha().raw().toBuffer()));
  expect(left?.length).toBe(right?.length);
  let sum = 0;
  for (let index = 0; index < (left as Buffer).length; index += 1) {
    sum += Math.abs((left as Buffer)[index]! - (right as Buffer)[index]!);
  }
  return sum / (left as Buffer).length;
}

describe('images that are accepted', () => {
  it.each([
    ['JPEG', () => jpeg(600, 800), 'image/jpeg', 'jpg'],
    ['progressive JPEG', () => jpeg(600, 800, { progressive: true }), 'image/jpeg', 'jpg'],
    ['PNG', () => png(600, 800), 'image/png', 'png'],
    ['interlaced PNG', () => png(800, 600, { progressive: true }), 'image/png', 'png'],
    ['lossy WebP', () => webp(600, 800), 'image/webp', 'webp'],
    ['lossless WebP', () => webp(800, 600, { lossless: true }), 'image/webp', 'webp'],
  ] as const)(
    'a %s whose short side is 600 px, with the same dimensions and format',
    async (_, make, contentType, extension) => {
      const original = await make();
      const checked = await checkDocumentFile(original, 'image');
      const size = imageSize(original);
      expect(checked).toMatchObject({ contentType, extension, width: size.width, height: size.height });
      expect(checked.size).toBe(checked.bytes.length);
      expect(checked.pages).toBeUndefined();
      expect(imageSize(checked.bytes)).toMatchObject({ width: size.width, height: size.height });
      const again = await checkDocumentFile(checked.bytes, 'image');
      expect(again.contentType).toBe(contentType);
    },
  );

  it('also where PDFs are accepted', async () => {
    const checked = await checkDocumentFile(await png(600, 600), 'image_or_pdf');
    expect(checked.contentType).toBe('image/png');
  });

  it('keeps a JPEG close to the original (quality 92, colour not subsampled)', async () => {
    const original = await jpeg(600, 800);
    const checked = await checkDocumentFile(original, 'image');
    expect(await meanDifference(original, checked.bytes)).toBeLessThan(2);
  });

  it('keeps PNG and lossless WebP pixels exactly', async () => {
    for (const original of [await png(600, 800), await webp(600, 800, { lossless: true })]) {
      const checked = await checkDocumentFile(original, 'image');
      expect(await meanDifference(original, checked.bytes)).toBe(0);
    }
  });
});

describe('metadata is stripped', () => {
  it('removes EXIF with GPS, XMP, IPTC and comments from a JPEG; the result has the same dimensions', async () => {
    const original = withJpegSegments(await jpeg(600, 800), exifSegment(), XMP_SEGMENT, IPTC_SEGMENT, COMMENT_SEGMENT);
    expect(contains(original, 'Exif\0\0')).toBe(true);
    expect(original.includes(Buffer.from([0x25, 0x88]))).toBe(true); // the GPSInfo tag, little-endian
    const checked = await checkDocumentFile(original, 'image');
    for (const marker of [
      'Exif',
      'http://ns.adobe.com/xap',
      'GPSLatitude',
      'Photoshop 3.0',
      '8BIM',
      'Nairobi',
      'taken at home',
    ]) {
      expect(contains(checked.bytes, marker), marker).toBe(false);
    }
    expect(checked.bytes.includes(Buffer.from([0x25, 0x88]))).toBe(false);
    expect(checked.bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(imageSize(checked.bytes)).toMatchObject({ width: 600, height: 800, type: 'jpg' });
    expect(await sharp(checked.bytes).metadata()).toMatchObject({ width: 600, height: 800 });
    expect((await sharp(checked.bytes).metadata()).exif).toBeUndefined();
  });

  it('turns a JPEG upright by its EXIF orientation before dropping it', async () => {
    // Stored sideways (800x600) with orientation 6: shown, and stored once checked, as 600x800.
    const original = withJpegSegments(await jpeg(800, 600), exifSegment(6));
    const checked = await checkDocumentFile(original, 'image');
    expect(checked).toMatchObject({ width: 600, height: 800 });
    expect(imageSize(checked.bytes)).toMatchObject({ width: 600, height: 800 });
    expect(imageSize(checked.bytes).orientation).toBeUndefined();
  });

  it('removes eXIf, tEXt, iTXt and zTXt chunks from a PNG', async () => {
    const original = withPngChunks(
      await png(600, 800),
      pngChunk('eXIf', exifSegment().subarray(10)),
      pngChunk('tEXt', Buffer.from('Comment\0GPS 1.28S 36.82E', 'latin1')),
      pngChunk('iTXt', Buffer.from('XML:com.adobe.xmp\0\0\0\0\0<x:xmpmeta/>', 'latin1')),
      pngChunk('zTXt', Buffer.from('Author\0\0x\x9c\x03\0\0\0\0\x01', 'latin1')),
    );
    expect((await sharp(original).metadata()).width).toBe(600); // still a valid PNG
    const checked = await checkDocumentFile(original, 'image');
    for (const marker of ['eXIf', 'tEXt', 'iTXt', 'zTXt', 'GPS', 'xmpmeta']) {
      expect(contains(checked.bytes, marker), marker).toBe(false);
    }
    expect(imageSize(checked.bytes)).toMatchObject({ width: 600, height: 800, type: 'png' });
  });

  it('removes EXIF and XMP chunks from a WebP', async () => {
    const original = await sharp(await webp(600, 800))
      .withExif({ IFD0: { Copyright: 'Nairobi' }, IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '1/1 17/1 0/1' } })
      .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF/></x:xmpmeta>')
      .webp()
      .toBuffer();
    expect(contains(original, 'EXIF')).toBe(true);
    expect(contains(original, 'XMP ')).toBe(true);
    const checked = await checkDocumentFile(original, 'image');
    for (const marker of ['EXIF', 'XMP ', 'Nairobi', 'xmpmeta']) {
      expect(contains(checked.bytes, marker), marker).toBe(false);
    }
    expect(imageSize(checked.bytes)).toMatchObject({ width: 600, height: 800, type: 'webp' });
  });
});

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

describe('unreadable: truncated or damaged images', () => {
  it.each([
    ['JPEG', () => jpeg(600, 800)],
    ['progressive JPEG', () => jpeg(600, 800, { progressive: true })],
    ['PNG', () => png(600, 800)],
    ['WebP', () => webp(600, 800)],
  ])('refuses a %s cut in half, and one missing its last bytes', async (_, make) => {
    const image = await make();
    await expectRefused(checkDocumentFile(half(image), 'image'), 'unreadable', /incomplete or damaged/);
    await expectRefused(checkDocumentFile(image.subarray(0, image.length - 1), 'image'), 'unreadable');
  });

  it('refuses a JPEG whose frame header is damaged although its end marker is there', async () => {
    const image = await jpeg(600, 800);
    const sof = image.indexOf(Buffer.from([0xff, 0xc0]));
    const damaged = Buffer.from(image);
    damaged.fill(0, sof + 5, sof + 9); // zero height and width
    await expectRefused(checkDocumentFile(damaged, 'image'), 'unreadable');
  });

  it('refuses a PNG whose image data is damaged', async () => {
    const image = await png(600, 800);
    const idat = image.indexOf('IDAT', 0, 'latin1');
    const damaged = Buffer.from(image);
    damaged.fill(0x55, idat + 4, idat + 200);
    await expectRefused(checkDocumentFile(damaged, 'image'), 'unreadable');
  });
});

describe('unreadable: polyglots', () => {
  it.each([
    ['a PDF', async () => pdf(1)],
    ['a ZIP archive', async () => zipArchive('payload.html', '<script>alert(1)</script>')],
    ['an empty ZIP archive', async () => EMPTY_ZIP],
    ['a web page', async () => Buffer.from('<html><script>alert(1)</script></html>')],
    ['a single zero byte', async () => Buffer.alloc(1)],
  ])('refuses a PNG, a JPEG and a WebP with %s after their end', async (_, payload) => {
    for (const image of [await png(600, 800), await jpeg(600, 800), await webp(600, 800)]) {
      await expectRefused(checkDocumentFile(Buffer.concat([image, await payload()]), 'image_or_pdf'), 'unreadable');
    }
  });

  it('refuses a PNG whose text chunk holds a PDF header near the start (PDF readers look in the first 1024 bytes)', async () => {
    const image = withPngChunks(await png(600, 800), pngChunk('tEXt', Buffer.from('Comment\0%PDF-1.7\n', 'latin1')));
    await expectRefused(checkDocumentFile(image, 'image_or_pdf'), 'unreadable', /another kind of file/);
  });

  it('refuses a PNG whose last chunk holds a ZIP archive, with its directory inside the file', async () => {
    const image = withPngChunksAtEnd(await png(600, 800), pngChunk('zzZz', zipArchive('a.html', '<b>x</b>')));
    await expectRefused(checkDocumentFile(image, 'image'), 'unreadable', /archive/);
  });

  it('refuses a JPEG whose comment or EXIF holds a web page', async () => {
    const withComment = withJpegSegments(
      await jpeg(600, 800),
      jpegSegment(0xfe, Buffer.from('<SCRIPT>alert(1)</SCRIPT>')),
    );
    const inExif = withJpegSegments(
      await jpeg(600, 800),
      jpegSegment(0xe1, Buffer.from('Exif\0\0<html><body>hi</body></html>')),
    );
    for (const image of [withComment, inExif]) {
      await expectRefused(checkDocumentFile(image, 'image'), 'unreadable', /another kind of file/);
    }
  });

  it('refuses a WebP with a chunk that holds a PDF', async () => {
    const image = await webp(600, 800);
    const chunk = Buffer.concat([Buffer.from('ZZZZ', 'latin1'), Buffer.alloc(4), Buffer.from('junk%PDF-1.4 obj')]);
    chunk.writeUInt32LE(chunk.length - 8, 4);
    const withChunk = Buffer.concat([image, chunk]);
    withChunk.writeUInt32LE(withChunk.length - 8, 4); // the RIFF size covers the new chunk
    await expectRefused(checkDocumentFile(withChunk, 'image'), 'unreadable', /another kind of file/);
  });
});

describe('checkImageFile: the image rules alone, for images that are no document', () => {
  it('cleans an image the same way, within the limits it is given', async () => {
    const original = withJpegSegments(await jpeg(64, 48), exifSegment({ description: 'Home: 14 Riverside Drive' }));
    const checked = await checkImageFile(original, { minImageShortSide: 1, maxImagePixels: 4096 });
    expect(checked).toMatchObject({ contentType: 'image/jpeg', extension: 'jpg', width: 64, height: 48 });
    expect(contains(checked.bytes, 'Riverside')).toBe(false);
    expect(contains(checked.bytes, 'Exif')).toBe(false);
    await expectRefused(checkImageFile(original, { minImageShortSide: 1, maxImagePixels: 3071 }), 'too_large');
  });

  it('takes no PDF, and refuses polyglots as documents are', async () => {
    await expectRefused(
      checkImageFile(await pdf(1)),
      'unsupported_media_type',
      /^The file must be a JPEG, PNG or WebP image$/,
    );
    const polyglot = Buffer.concat([await png(600, 600), await pdf(1)]);
    await expectRefused(checkImageFile(polyglot), 'unreadable');
  });

  it('applies the document limits unless told otherwise', async () => {
    await expectRefused(checkImageFile(await png(300, 300)), 'image_too_small');
  });
});
