import { blackPng, exifSegment, handWrittenPdf, withJpegSegments } from '@platform/document-checks/testing';
import { type FuzzRequest, hostileStrings } from '@platform/http/testing';
import fc from 'fast-check';
import { type FilePart, multipart, tinyJpeg, tinyPng, tinyWebp } from '../images.js';

/** The route `avatarUploads` are sent to. */
export const AVATAR_ROUTE = 'POST /v1/auth/avatar';

/**
 * Avatar uploads as multipart bodies (the only route that takes bytes, which the JSON-minded generators cannot
 * make): real images, bytes that only claim to be one, odd fields, file names and part counts, and a broken
 * boundary.
 */
export function avatarUploads(credentials: fc.Arbitrary<Record<string, string>>): fc.Arbitrary<FuzzRequest> {
  const data = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(tinyPng(), tinyJpeg(), tinyWebp()) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 2_000 }).map((bytes) => Buffer.from(bytes)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
        Buffer.alloc(0),
        tinyPng().subarray(0, 20),
        // A photo with an address in its EXIF (stored cleaned), a polyglot and a header of 900 megapixels (refused).
        withJpegSegments(tinyJpeg(), exifSegment({ description: 'Home: 14 Riverside Drive' })),
        Buffer.concat([tinyPng(), handWrittenPdf()]),
        blackPng(30_000, 30_000, { imageData: false }),
      ),
    },
  );
  const text = hostileStrings.filter((value) => value.length < 200 && !/[\r\n"]/.test(value));
  const part: fc.Arbitrary<FilePart> = fc.record({
    field: fc.oneof({ weight: 4, arbitrary: fc.constantFrom('file', 'avatar') }, { weight: 1, arbitrary: text }),
    filename: fc.oneof(fc.constantFrom('me.png', 'me.jpg', '../../src/etc/passwd', 'x.exe'), text),
    contentType: fc.constantFrom('image/png', 'image/jpeg', 'image/webp', 'application/octet-stream', 'text/html'),
    data,
  });
  const parts = fc.oneof(
    { weight: 4, arbitrary: part.map((one) => [one]) },
    { weight: 1, arbitrary: fc.array(part, { maxLength: 3 }) },
  );
  return fc.tuple(parts, credentials, fc.boolean()).map(([files, who, brokenBoundary]) => {
    const { payload, headers } = multipart(files);
    return {
      route: AVATAR_ROUTE,
      method: 'POST',
      url: '/v1/auth/avatar',
      headers: {
        ...who,
        'content-type': brokenBoundary ? 'multipart/form-data; boundary=not-the-one-used' : headers['content-type'],
      },
      payload,
    };
  });
}
