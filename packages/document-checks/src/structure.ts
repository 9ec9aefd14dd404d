import { INCOMPLETE_FILE, unreadable } from './refusal.js';

/**
 * The container walks behind the polyglot rule (README.md#polyglots): an image must end exactly at its end
 * marker, and no part of a file other than pixel data may carry another format's signature.
 */

/** What walking an image's container found. */
export interface ImageLayout {
  /** Byte ranges [start, end) holding metadata and other data that is not pixels. */
  metadata: Array<readonly [number, number]>;
  /** WebP only: the image data is lossless (a VP8L chunk). */
  lossless: boolean;
}

const TRAILING_DATA =
  'The image carries other data after its end (such as a second picture, a video or another file): send a plain photo';

function endsAtEndOfFile(end: number, bytes: Buffer): void {
  if (end !== bytes.length) throw unreadable(TRAILING_DATA);
}

/**
 * JPEG: segments from SOI to EOI, entropy-coded data skipped up to the next marker. EOI must be the file's last
 * two bytes. The APPn and COM segments (EXIF, XMP, IPTC, ICC, comments) are metadata.
 */
export function walkJpeg(bytes: Buffer): ImageLayout {
  const metadata: Array<readonly [number, number]> = [];
  let pos = 2; // after SOI (FF D8), which file-type has seen
  for (;;) {
    if (pos >= bytes.length) throw unreadable(INCOMPLETE_FILE);
    if (bytes[pos] !== 0xff) throw unreadable(INCOMPLETE_FILE);
    while (bytes[pos] === 0xff) pos += 1; // fill bytes before a marker
    if (pos >= bytes.length) throw unreadable(INCOMPLETE_FILE);
    const marker = bytes[pos] as number;
    pos += 1;
    if (marker === 0xd9) {
      endsAtEndOfFile(pos, bytes);
      return { metadata, lossless: false };
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue; // markers without a length
    if (pos + 2 > bytes.length) throw unreadable(INCOMPLETE_FILE);
    const length = bytes.readUInt16BE(pos);
    if (length < 2 || pos + length > bytes.length) throw unreadable(INCOMPLETE_FILE);
    if ((marker >= 0xe0 && marker <= 0xef) || marker === 0xfe) metadata.push([pos + 2, pos + length]);
    pos += length;
    if (marker === 0xda) pos = endOfEntropyCodedData(bytes, pos);
  }
}

/** The offset of the first marker after a scan's entropy-coded data (FF 00 and restart markers belong to it). */
function endOfEntropyCodedData(bytes: Buffer, start: number): number {
  let pos = start;
  for (;;) {
    const ff = bytes.indexOf(0xff, pos);
    if (ff === -1 || ff + 1 >= bytes.length) throw unreadable(INCOMPLETE_FILE);
    const next = bytes[ff + 1] as number;
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) {
      pos = ff + 2;
      continue;
    }
    return ff;
  }
}

const PNG_SIGNATURE_LENGTH = 8;
const PNG_PIXEL_CHUNKS = new Set(['IDAT', 'fdAT']);

/**
 * PNG: chunks from IHDR to IEND, each with a length, a type of four letters, data and a CRC. IEND must end the
 * file. Every chunk other than image data (text, EXIF, ICC, unknown chunks) is metadata.
 */
export function walkPng(bytes: Buffer): ImageLayout {
  const metadata: Array<readonly [number, number]> = [];
  let pos = PNG_SIGNATURE_LENGTH;
  let first = true;
  for (;;) {
    if (pos + 12 > bytes.length) throw unreadable(INCOMPLETE_FILE);
    const length = bytes.readUInt32BE(pos);
    const type = bytes.toString('latin1', pos + 4, pos + 8);
    const dataStart = pos + 8;
    const dataEnd = dataStart + length;
    if (length > 0x7fffffff || !/^[A-Za-z]{4}$/.test(type) || dataEnd + 4 > bytes.length) {
      throw unreadable(INCOMPLETE_FILE);
    }
    if (first && type !== 'IHDR') throw unreadable(INCOMPLETE_FILE);
    first = false;
    if (!PNG_PIXEL_CHUNKS.has(type)) metadata.push([dataStart, dataEnd]);
    pos = dataEnd + 4;
    if (type === 'IEND') {
      endsAtEndOfFile(pos, bytes);
      return { metadata, lossless: true };
    }
  }
}

const WEBP_PIXEL_CHUNKS = new Set(['VP8 ', 'VP8L', 'ALPH', 'ANMF']);

/**
 * WebP: a RIFF chunk whose declared size covers exactly the rest of the file, holding chunks (each padded to an
 * even length). Every chunk other than image data (EXIF, XMP, ICC, unknown chunks) is metadata.
 */
export function walkWebp(bytes: Buffer): ImageLayout {
  if (bytes.length < 12) throw unreadable(INCOMPLETE_FILE);
  const riffEnd = 8 + bytes.readUInt32LE(4);
  if (riffEnd > bytes.length) throw unreadable(INCOMPLETE_FILE);
  endsAtEndOfFile(riffEnd, bytes);
  const metadata: Array<readonly [number, number]> = [];
  let lossless = false;
  let pos = 12;
  while (pos < riffEnd) {
    if (pos + 8 > riffEnd) throw unreadable(INCOMPLETE_FILE);
    const type = bytes.toString('latin1', pos, pos + 4);
    const length = bytes.readUInt32LE(pos + 4);
    const dataStart = pos + 8;
    const dataEnd = dataStart + length;
    if (dataEnd > riffEnd) throw unreadable(INCOMPLETE_FILE);
    if (type === 'VP8L') lossless = true;
    if (!WEBP_PIXEL_CHUNKS.has(type)) metadata.push([dataStart, dataEnd]);
    pos = dataEnd + (length % 2);
  }
  if (pos !== riffEnd) throw unreadable(INCOMPLETE_FILE);
  return { metadata, lossless };
}

/** Signatures of what a PDF reader, an unzipper or a browser would take the bytes for. */
const FOREIGN_SIGNATURES: ReadonlyArray<{ bytes: Buffer; caseInsensitive: boolean }> = [
  { text: '%PDF-', caseInsensitive: false },
  { text: 'PK\x03\x04', caseInsensitive: false },
  { text: 'PK\x05\x06', caseInsensitive: false },
  // biome-ignore-start lint/plugin: signatures of HTML to refuse in an upload, not HTML this code writes
  { text: '<html', caseInsensitive: true },
  { text: '<body', caseInsensitive: true },
  { text: '<script', caseInsensitive: true },
  { text: '<iframe', caseInsensitive: true },
  { text: '<!doctype', caseInsensitive: true },
  // biome-ignore-end lint/plugin: signatures of HTML to refuse in an upload, not HTML this code writes
  { text: '<?php', caseInsensitive: true },
].map(({ text, caseInsensitive }) => ({ bytes: Buffer.from(text, 'latin1'), caseInsensitive }));

const CARRIES_ANOTHER_FILE =
  'The image also carries another kind of file (a PDF, an archive or a web page): send a plain photo';

/** Refuses an image whose metadata carries a PDF, ZIP or HTML signature. */
export function refuseForeignSignatures(bytes: Buffer, layout: ImageLayout): void {
  for (const [start, end] of layout.metadata) {
    const range = bytes.subarray(start, end);
    let lowered: Buffer | undefined;
    for (const signature of FOREIGN_SIGNATURES) {
      let haystack = range;
      if (signature.caseInsensitive) {
        lowered ??= Buffer.from(range.toString('latin1').toLowerCase(), 'latin1');
        haystack = lowered;
      }
      if (haystack.includes(signature.bytes)) throw unreadable(CARRIES_ANOTHER_FILE);
    }
  }
}

/** PDF readers look for the header in the first 1024 bytes, not only at the start. */
const PDF_HEADER_WINDOW = 1024;

/** True when a file that is not a PDF would open in a PDF reader. */
export function hasPdfHeader(bytes: Buffer): boolean {
  return bytes.subarray(0, PDF_HEADER_WINDOW).includes('%PDF-', 0, 'latin1');
}

const EOCD_SIGNATURE = 0x06054b50;
const EOCD_LENGTH = 22;
/** An end-of-central-directory record sits in the last 22 bytes plus at most a 65,535-byte comment. */
const EOCD_WINDOW = EOCD_LENGTH + 0xffff;

/**
 * True when the file's tail holds a well-formed ZIP end-of-central-directory record, which is what unzippers
 * (and JAR, DOCX or APK readers) look for: they open such a file whatever it starts with. Well-formed: one disk,
 * as many entries on it as in total, and a central directory that lies before the record.
 */
export function hasZipDirectory(bytes: Buffer): boolean {
  const windowStart = Math.max(0, bytes.length - EOCD_WINDOW);
  for (let pos = bytes.length - EOCD_LENGTH; pos >= windowStart; pos -= 1) {
    if (bytes.readUInt32LE(pos) !== EOCD_SIGNATURE) continue;
    const disk = bytes.readUInt16LE(pos + 4);
    const directoryDisk = bytes.readUInt16LE(pos + 6);
    const entriesOnDisk = bytes.readUInt16LE(pos + 8);
    const entries = bytes.readUInt16LE(pos + 10);
    const directorySize = bytes.readUInt32LE(pos + 12);
    const directoryOffset = bytes.readUInt32LE(pos + 16);
    if (disk === 0 && directoryDisk === 0 && entriesOnDisk === entries && directoryOffset + directorySize <= pos) {
      return true;
    }
  }
  return false;
}

const PDF_WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const PDF_EOF_MARKER = Buffer.from('%%EOF', 'latin1');

/**
 * True when the file ends with `%%EOF`, only whitespace after it. A PDF cut short lacks it; one with another
 * file appended has more after it.
 */
export function endsWithPdfEofMarker(bytes: Buffer): boolean {
  let end = bytes.length;
  while (end > 0 && PDF_WHITESPACE.has(bytes[end - 1] as number)) end -= 1;
  return end >= PDF_EOF_MARKER.length && bytes.subarray(end - PDF_EOF_MARKER.length, end).equals(PDF_EOF_MARKER);
}
