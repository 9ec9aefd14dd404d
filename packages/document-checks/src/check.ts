import { fileTypeFromBuffer } from 'file-type';
import { cleanImage, type ImageFormat } from './image.js';
import { checkPdf } from './pdf.js';
import { DocumentFileRefusal, unreadable } from './refusal.js';
import { hasPdfHeader, hasZipDirectory } from './structure.js';

/** Which files a document kind takes: photos only (identity documents, selfies), or photos and PDFs (KYB papers). */
export type DocumentAccept = 'image' | 'image_or_pdf';

/** The limits of a check; each has the default the issue sets. */
export interface DocumentFileLimits {
  /** Largest file, in bytes (default 10 MiB). Checked before anything is parsed. */
  maxBytes: number;
  /** Smallest shorter side of an image, in pixels (default 600). */
  minImageShortSide: number;
  /** Largest image, in pixels (default 100 million): a small file can declare a huge image. */
  maxImagePixels: number;
  /** Most pages of a PDF (default 20). */
  maxPdfPages: number;
  /** Most bytes pdf-lib may decode from a PDF's compressed structure while loading it (default 64 MiB). */
  maxPdfDecodedBytes: number;
}

export const DEFAULT_DOCUMENT_FILE_LIMITS: Readonly<DocumentFileLimits> = Object.freeze({
  maxBytes: 10 * 1024 * 1024,
  minImageShortSide: 600,
  maxImagePixels: 100_000_000,
  maxPdfPages: 20,
  maxPdfDecodedBytes: 64 * 1024 * 1024,
});

/** The limits of an image check (`checkImageFile`): those of a document check that apply to images. */
export type ImageFileLimits = Pick<DocumentFileLimits, 'maxBytes' | 'minImageShortSide' | 'maxImagePixels'>;

/** An accepted file, ready to store: `bytes` is what to store (a cleaned copy for images, the file for PDFs). */
export interface CheckedDocumentFile {
  contentType: 'image/jpeg' | 'image/png' | 'image/webp' | 'application/pdf';
  extension: 'jpg' | 'png' | 'webp' | 'pdf';
  bytes: Buffer;
  /** Size of `bytes`. */
  size: number;
  /** Images: of the stored copy, upright. */
  width?: number;
  height?: number;
  /** PDFs. */
  pages?: number;
}

interface ImageKind {
  format: ImageFormat;
  contentType: 'image/jpeg' | 'image/png' | 'image/webp';
  extension: 'jpg' | 'png' | 'webp';
}

/** The image formats taken, by the media type file-type gives their signature. */
const IMAGE_KINDS: Readonly<Record<string, ImageKind>> = {
  'image/jpeg': { format: 'jpeg', contentType: 'image/jpeg', extension: 'jpg' },
  'image/png': { format: 'png', contentType: 'image/png', extension: 'png' },
  'image/webp': { format: 'webp', contentType: 'image/webp', extension: 'webp' },
};

const MEGABYTE = 1024 * 1024;

/** An accepted image: a cleaned copy (pixels only, upright, sRGB) in the format it was sent in. */
export interface CheckedImageFile extends CheckedDocumentFile {
  contentType: ImageKind['contentType'];
  extension: ImageKind['extension'];
  width: number;
  height: number;
}

/**
 * Decides whether an uploaded document file is acceptable, by its content only (never its name or declared
 * type), and prepares it for storage. Throws a DocumentFileRefusal (README.md lists each reason).
 */
export async function checkDocumentFile(
  bytes: Buffer,
  accept: DocumentAccept,
  limits: Partial<DocumentFileLimits> = {},
): Promise<CheckedDocumentFile> {
  const all = { ...DEFAULT_DOCUMENT_FILE_LIMITS, ...limits };
  refuseOverSize(bytes, all.maxBytes);
  const detected = await fileTypeFromBuffer(bytes);
  const image = detected === undefined ? undefined : IMAGE_KINDS[detected.mime];
  const pdf = detected?.mime === 'application/pdf' && accept === 'image_or_pdf';
  if (image === undefined && !pdf) {
    throw new DocumentFileRefusal(
      'unsupported_media_type',
      accept === 'image' ? IMAGES_ONLY : 'The file must be a PDF or a JPEG, PNG or WebP image',
    );
  }
  refuseArchive(bytes);
  if (image !== undefined) return cleanImageFile(bytes, image, all);
  const { pages } = await checkPdf(bytes, { maxPages: all.maxPdfPages, maxDecodedBytes: all.maxPdfDecodedBytes });
  return { contentType: 'application/pdf', extension: 'pdf', bytes, size: bytes.length, pages };
}

/**
 * The image rules of `checkDocumentFile` alone, for images that are no document (a profile photo): a JPEG, PNG or
 * WebP image by content, within the limits (the document defaults unless given), no polyglot, re-encoded without
 * metadata. Throws a DocumentFileRefusal.
 */
export async function checkImageFile(bytes: Buffer, limits: Partial<ImageFileLimits> = {}): Promise<CheckedImageFile> {
  const all = { ...DEFAULT_DOCUMENT_FILE_LIMITS, ...limits };
  refuseOverSize(bytes, all.maxBytes);
  const detected = await fileTypeFromBuffer(bytes);
  const image = detected === undefined ? undefined : IMAGE_KINDS[detected.mime];
  if (image === undefined) throw new DocumentFileRefusal('unsupported_media_type', IMAGES_ONLY);
  refuseArchive(bytes);
  return cleanImageFile(bytes, image, all);
}

const IMAGES_ONLY = 'The file must be a JPEG, PNG or WebP image';

/** Over `maxBytes`: refused before the file is parsed. */
function refuseOverSize(bytes: Buffer, maxBytes: number): void {
  if (bytes.length > maxBytes) {
    throw new DocumentFileRefusal(
      'too_large',
      `The file is larger than ${formatSize(maxBytes)}: send a smaller photo or scan`,
    );
  }
}

function refuseArchive(bytes: Buffer): void {
  if (hasZipDirectory(bytes)) {
    throw unreadable('The file also carries an archive (such as a ZIP file): send a plain photo or PDF');
  }
}

async function cleanImageFile(bytes: Buffer, image: ImageKind, limits: ImageFileLimits): Promise<CheckedImageFile> {
  if (hasPdfHeader(bytes)) {
    throw unreadable('The image also carries another kind of file (a PDF): send a plain photo');
  }
  const clean = await cleanImage(bytes, image.format, {
    minShortSide: limits.minImageShortSide,
    maxPixels: limits.maxImagePixels,
  });
  return {
    contentType: image.contentType,
    extension: image.extension,
    bytes: clean.bytes,
    size: clean.bytes.length,
    width: clean.width,
    height: clean.height,
  };
}

function formatSize(bytes: number): string {
  return bytes % MEGABYTE === 0 ? `${bytes / MEGABYTE} MB` : `${bytes} bytes`;
}
