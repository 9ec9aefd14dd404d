import { describe, expect, it } from 'vitest';
import { expectRefused } from '../test/refusals.js';
import { checkImageFile } from './index.js';
import { contains, exifSegment, jpeg, pdf, png, withJpegSegments } from './testing/index.js';

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
