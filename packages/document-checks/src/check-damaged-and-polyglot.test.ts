import { describe, it } from 'vitest';
import { expectRefused } from '../test/refusals.js';
import { checkDocumentFile } from './index.js';
import {
  EMPTY_ZIP,
  half,
  jpeg,
  jpegSegment,
  pdf,
  png,
  pngChunk,
  webp,
  withJpegSegments,
  withPngChunks,
  withPngChunksAtEnd,
  zipArchive,
} from './testing/index.js';

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
