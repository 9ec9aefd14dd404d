import { describe, expect, it } from 'vitest';
import { DocumentFileRefusal } from './refusal.js';
import { endsWithPdfEofMarker, hasPdfHeader, hasZipDirectory, walkJpeg } from './structure.js';
import { EMPTY_ZIP, jpegSegment, zipArchive } from './testing/index.js';

const SOI = Buffer.from([0xff, 0xd8]);
const EOI = Buffer.from([0xff, 0xd9]);

/** A JPEG's skeleton: SOI, an APP0, a scan header and `entropy` bytes, EOI. The walk does not decode pixels. */
const skeleton = (entropy: number[]) =>
  Buffer.concat([
    SOI,
    jpegSegment(0xe0, Buffer.from('JFIF\0')),
    jpegSegment(0xda, Buffer.alloc(10)),
    Buffer.from(entropy),
    EOI,
  ]);

describe('walkJpeg', () => {
  it('skips stuffed bytes, restart markers and fill bytes inside a scan', () => {
    const layout = walkJpeg(skeleton([0x12, 0xff, 0x00, 0x34, 0xff, 0xd3, 0x56, 0xff, 0xff]));
    expect(layout.metadata).toEqual([[6, 11]]); // the APP0 data
  });

  it('refuses bytes after EOI and a file without EOI', () => {
    expect(() => walkJpeg(Buffer.concat([skeleton([1]), Buffer.from([0])]))).toThrow(DocumentFileRefusal);
    expect(() => walkJpeg(skeleton([1]).subarray(0, -2))).toThrow(/incomplete or damaged/);
  });

  it('refuses a segment longer than the file', () => {
    const segment = jpegSegment(0xe1, Buffer.alloc(10));
    expect(() => walkJpeg(Buffer.concat([SOI, segment.subarray(0, 8)]))).toThrow(/incomplete or damaged/);
  });
});

describe('hasZipDirectory', () => {
  it('finds the directory record of an archive, at the end or with bytes after it', () => {
    expect(hasZipDirectory(zipArchive('a.txt', 'x'))).toBe(true);
    expect(hasZipDirectory(Buffer.concat([Buffer.alloc(1000), EMPTY_ZIP, Buffer.alloc(100)]))).toBe(true);
  });

  it('ignores the signature where the record around it is not well formed', () => {
    const record = Buffer.from(EMPTY_ZIP);
    record.writeUInt16LE(3, 8); // entries on this disk differ from the total
    expect(hasZipDirectory(Buffer.concat([Buffer.alloc(100), record]))).toBe(false);
    expect(hasZipDirectory(Buffer.from('PK\x05\x06', 'latin1'))).toBe(false);
  });

  it('looks only where a record can be: the last 22 bytes plus the longest comment', () => {
    expect(hasZipDirectory(Buffer.concat([EMPTY_ZIP, Buffer.alloc(0x10000)]))).toBe(false);
  });
});

describe('PDF markers', () => {
  it('a header anywhere in the first 1024 bytes', () => {
    expect(hasPdfHeader(Buffer.concat([Buffer.alloc(1000), Buffer.from('%PDF-1.4')]))).toBe(true);
    expect(hasPdfHeader(Buffer.concat([Buffer.alloc(1024), Buffer.from('%PDF-1.4')]))).toBe(false);
  });

  it('%%EOF at the end, whitespace after it allowed', () => {
    expect(endsWithPdfEofMarker(Buffer.from('%PDF-1.7\n...\n%%EOF'))).toBe(true);
    expect(endsWithPdfEofMarker(Buffer.from('%PDF-1.7\n...\n%%EOF\r\n \0'))).toBe(true);
    expect(endsWithPdfEofMarker(Buffer.from('%PDF-1.7\n...\n%%EOF\nPK'))).toBe(false);
    expect(endsWithPdfEofMarker(Buffer.from('%PDF-1.7\n...\n%%EO'))).toBe(false);
  });
});
