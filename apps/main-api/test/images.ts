import { crc32, deflateSync } from 'node:zlib';

// Tiny but complete images, built from bytes so the tests need no fixtures.

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, checksum]);
}

/** A 1x1 greyscale PNG; `paddingBytes` adds a tEXt chunk to reach a given size. */
export function tinyPng(paddingBytes = 0): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0); // width
  header.writeUInt32BE(1, 4); // height
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const chunks = [
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.from([0, 0xff]))),
  ];
  if (paddingBytes > 0)
    chunks.push(pngChunk('tEXt', Buffer.concat([Buffer.from('Comment\0'), Buffer.alloc(paddingBytes, 0x61)])));
  chunks.push(pngChunk('IEND', Buffer.alloc(0)));
  return Buffer.concat(chunks);
}

/** A 1x1 greyscale baseline JPEG: one DC and one AC Huffman code, scan data "DC 0, end of block". */
export function tinyJpeg(): Buffer {
  const segment = (marker: number, body: number[]) => [
    0xff,
    marker,
    (body.length + 2) >> 8,
    (body.length + 2) & 0xff,
    ...body,
  ];
  const oneCodeOfLengthOne = [1, ...Array<number>(15).fill(0), 0];
  return Buffer.from([
    0xff,
    0xd8, // SOI
    ...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0]), // APP0 JFIF
    ...segment(0xdb, [0x00, ...Array<number>(64).fill(1)]), // DQT
    ...segment(0xc0, [8, 0, 1, 0, 1, 1, 1, 0x11, 0]), // SOF0: 8 bit, 1x1, one component
    ...segment(0xc4, [0x00, ...oneCodeOfLengthOne]), // DHT: DC table 0
    ...segment(0xc4, [0x10, ...oneCodeOfLengthOne]), // DHT: AC table 0
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]), // SOS
    0x3f, // bits "00" (DC difference 0, end of block) padded with ones
    0xff,
    0xd9, // EOI
  ]);
}

/** A 1x1 lossless WebP. */
export function tinyWebp(): Buffer {
  return Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');
}

/** A file part, or a text field when it has no `filename`. */
export type FilePart =
  | { field: string; filename: string; contentType: string; data: Buffer }
  | { field: string; filename?: undefined; data: Buffer };

/** A multipart/form-data body and its content type, for app.inject. */
export function multipart(parts: FilePart[]): { payload: Buffer; headers: { 'content-type': string } } {
  const boundary = `----main-api-test-${Math.random().toString(16).slice(2)}`;
  const pieces: Buffer[] = [];
  for (const part of parts) {
    pieces.push(
      Buffer.from(
        part.filename === undefined
          ? `--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"\r\n\r\n`
          : `--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"; filename="${part.filename}"\r\n` +
              `Content-Type: ${part.contentType}\r\n\r\n`,
      ),
      part.data,
      Buffer.from('\r\n'),
    );
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(pieces), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/**
 * A greyscale PNG of `width` x `height` with a gradient, big enough for the identity-document checks (600 px on the
 * shorter side) without an image library.
 */
export function greyPng(width = 600, height = 800): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y += 1) {
    const start = y * (width + 1); // each row starts with filter type 0
    for (let x = 0; x < width; x += 1) rows[start + 1 + x] = (x + y) % 256;
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
