import { imageSize } from 'image-size';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { checkDocumentFile } from './index.js';
import {
  COMMENT_SEGMENT,
  contains,
  exifSegment,
  IPTC_SEGMENT,
  jpeg,
  png,
  pngChunk,
  webp,
  withJpegSegments,
  withPngChunks,
  XMP_SEGMENT,
} from './testing/index.js';

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
