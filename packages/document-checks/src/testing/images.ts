import { crc32, deflateSync } from 'node:zlib';
import sharp, { type JpegOptions, type PngOptions, type WebpOptions } from 'sharp';

/** Test images, made when a test runs: nothing binary is committed. */

/**
 * A deterministic picture with detail (stripes and a gradient), so encoders have something to lose: a flat colour
 * would hide a poor re-encoding.
 */
function pixels(width: number, height: number): Buffer {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const offset = (y * width + x) * 3;
      raw[offset] = (x * 255) / width;
      raw[offset + 1] = (y * 255) / height;
      raw[offset + 2] = Math.floor(x / 8) % 2 === 0 ? 40 : 200;
    }
  }
  return raw;
}

function picture(width: number, height: number) {
  return sharp(pixels(width, height), { raw: { width, height, channels: 3 } });
}

export const jpeg = (width: number, height: number, options: JpegOptions = {}) =>
  picture(width, height)
    .jpeg({ quality: 95, ...options })
    .toBuffer();
export const png = (width: number, height: number, options: PngOptions = {}) =>
  picture(width, height).png(options).toBuffer();
export const webp = (width: number, height: number, options: WebpOptions = {}) =>
  picture(width, height).webp(options).toBuffer();

/** Nairobi, as an EXIF GPS block would give it (1°17'S 36°49'E). */
const GPS_LATITUDE = [1, 17, 0] as const;
const GPS_LONGITUDE = [36, 49, 0] as const;

/** What an EXIF block says besides the GPS position. */
export interface ExifContent {
  /** 6 means "turn 90° clockwise to show". */
  orientation?: number;
  /** ImageDescription, where some phones and apps write an address. */
  description?: string;
}

/**
 * An APP1 EXIF segment built by hand (little-endian TIFF): IFD0 with an Orientation, an ImageDescription when given
 * and a GPS IFD pointer; the GPS IFD with latitude and longitude. `exifSegment(6)` is an orientation of 6.
 */
export function exifSegment(content: number | ExifContent = {}): Buffer {
  const { orientation = 1, description } = typeof content === 'number' ? { orientation: content } : content;
  const text = description === undefined ? undefined : Buffer.from(`${description}\0`, 'latin1');
  const ifd0Entries = text === undefined ? 2 : 3;
  const gpsIfd = 8 + 2 + ifd0Entries * 12 + 4;
  const rationals = gpsIfd + 2 + 4 * 12 + 4;
  const textAt = rationals + 48;
  const tiff = Buffer.alloc(textAt + (text?.length ?? 0));
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(8, 4);
  let pos = 8;
  const entry = (tag: number, type: number, count: number, value: number) => {
    tiff.writeUInt16LE(tag, pos);
    tiff.writeUInt16LE(type, pos + 2);
    tiff.writeUInt32LE(count, pos + 4);
    if (type === 3 && count === 1) tiff.writeUInt16LE(value, pos + 8);
    else if (type === 2 && count <= 4) tiff.write(String.fromCharCode(value), pos + 8, 'latin1');
    else tiff.writeUInt32LE(value, pos + 8);
    pos += 12;
  };
  tiff.writeUInt16LE(ifd0Entries, pos);
  pos += 2;
  if (text !== undefined) entry(0x010e, 2, text.length, textAt); // ImageDescription (entries in tag order)
  entry(0x0112, 3, 1, orientation); // Orientation
  entry(0x8825, 4, 1, gpsIfd); // GPSInfo IFD pointer
  tiff.writeUInt32LE(0, pos); // no next IFD
  pos = gpsIfd;
  tiff.writeUInt16LE(4, pos);
  pos += 2;
  entry(0x0001, 2, 2, 'S'.charCodeAt(0)); // GPSLatitudeRef
  entry(0x0002, 5, 3, rationals); // GPSLatitude
  entry(0x0003, 2, 2, 'E'.charCodeAt(0)); // GPSLongitudeRef
  entry(0x0004, 5, 3, rationals + 24); // GPSLongitude
  tiff.writeUInt32LE(0, pos);
  [...GPS_LATITUDE, ...GPS_LONGITUDE].forEach((value, index) => {
    tiff.writeUInt32LE(value, rationals + index * 8);
    tiff.writeUInt32LE(1, rationals + index * 8 + 4);
  });
  text?.copy(tiff, textAt);
  return jpegSegment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]));
}

/** A JPEG marker segment: FF, the marker, a two-byte length (itself included), the data. */
export function jpegSegment(marker: number, data: Buffer): Buffer {
  const header = Buffer.alloc(4);
  header[0] = 0xff;
  header[1] = marker;
  header.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([header, data]);
}

/** `segments` placed right after SOI. */
export function withJpegSegments(image: Buffer, ...segments: Buffer[]): Buffer {
  return Buffer.concat([image.subarray(0, 2), ...segments, image.subarray(2)]);
}

export const XMP_SEGMENT = jpegSegment(
  0xe1,
  Buffer.from(
    'http://ns.adobe.com/xap/1.0/\0<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description exif:GPSLatitude="1,17.0S"/></rdf:RDF></x:xmpmeta>',
    'latin1',
  ),
);
export const IPTC_SEGMENT = jpegSegment(
  0xed,
  Buffer.from('Photoshop 3.0\x008BIM\x04\x04\0\0\0\0\0\x0a\x1c\x02\x5a\0\x07Nairobi', 'latin1'),
);
export const COMMENT_SEGMENT = jpegSegment(0xfe, Buffer.from('taken at home', 'latin1'));

/** A PNG chunk: length, type, data, CRC of type and data. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/** `chunks` placed right after IHDR (8-byte signature, then a 25-byte IHDR chunk). */
export function withPngChunks(image: Buffer, ...chunks: Buffer[]): Buffer {
  return Buffer.concat([image.subarray(0, 33), ...chunks, image.subarray(33)]);
}

/** `chunks` placed right before IEND (the last 12 bytes). */
export function withPngChunksAtEnd(image: Buffer, ...chunks: Buffer[]): Buffer {
  return Buffer.concat([image.subarray(0, image.length - 12), ...chunks, image.subarray(image.length - 12)]);
}

/**
 * A black PNG of `width` x `height` at one bit a pixel, made without an image library: a huge one (30000 x 30000) is
 * about 0.5 MB. `imageData: false` keeps the header and cuts the image data to a few bytes, so that only a check of the
 * header can tell its size (decoding would find it damaged).
 */
export function blackPng(width: number, height: number, { imageData = true }: { imageData?: boolean } = {}): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const rows = imageData ? Buffer.alloc((Math.ceil(width / 8) + 1) * height) : Buffer.alloc(16);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows, { level: 1 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
