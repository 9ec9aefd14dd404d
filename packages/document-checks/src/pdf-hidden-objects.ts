import { HIDDEN_OBJECTS } from './pdf-active-content.js';
import type { ParsedPdf } from './pdf-parse.js';
import { unreadable } from './refusal.js';

/**
 * PDF whitespace or a comment, as readers skip them between the parts of an object header. A comment runs to the end
 * of its line, and only so: were it allowed to end anywhere, a line of `%` signs could be split in 2^n ways, each
 * tried before the pattern fails.
 */
const GAP = String.raw`(?:[\0\t\n\f\r ]|%[^\r\n]*(?=[\r\n]|$))`;
/**
 * `N G obj`, where a reader sent to this offset reads an object: the number not the tail of a longer one, `obj` not
 * the start of a longer word (a digit may follow: readers take `obj1` as `obj`).
 */
const OBJECT_HEADER = new RegExp(
  String.raw`(?<![0-9])[0-9]+${GAP}+[0-9]+${GAP}*obj(?=[\0\t\n\f\r ()<>[\]{}/%0-9]|$)`,
  'g',
);
/** `trailer <<`, which a reader repairing a file, or sent here by `startxref`, takes for the trailer. */
const TRAILER = new RegExp(`trailer${GAP}*<<`, 'g');

/**
 * Refuses a PDF with an object header or a trailer that the parser did not read as one: inside a string, a comment
 * or a stream's data. pdf-lib reads a file from start to end and skips those, while a reader follows the
 * cross-reference section's offsets and `startxref`, and scans the raw bytes for headers when that section is
 * damaged: a catalog written inside a comment would be what it opens, and no check here would have seen it. The
 * file's bytes are searched as they are (a reader sent into a stream reads its raw bytes; the objects of object
 * streams are the parser's own). Compressed data (a photo in a scan) matches by chance in about one 10 MB file in
 * 500,000 (docs/decisions.md#pdfs-without-active-content).
 */
export function refuseHiddenObjects(bytes: Buffer, parsed: ParsedPdf): void {
  const text = bytes.toString('latin1');
  for (const match of text.matchAll(OBJECT_HEADER)) {
    if (!parsed.objectStarts.has(match.index)) throw unreadable(HIDDEN_OBJECTS);
  }
  for (const match of text.matchAll(TRAILER)) {
    if (!parsed.trailerStarts.has(match.index)) throw unreadable(HIDDEN_OBJECTS);
  }
}
