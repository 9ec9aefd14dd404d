import { imageSize } from 'image-size';
import sharp from 'sharp';
import { DocumentFileRefusal, INCOMPLETE_FILE, unreadable } from './refusal.js';
import { type ImageLayout, refuseForeignSignatures, walkJpeg, walkPng, walkWebp } from './structure.js';

export type ImageFormat = 'jpeg' | 'png' | 'webp';

export interface ImageLimits {
  minShortSide: number;
  maxPixels: number;
}

export interface CleanImage {
  bytes: Buffer;
  width: number;
  height: number;
}

const WALKS: Readonly<Record<ImageFormat, (bytes: Buffer) => ImageLayout>> = {
  jpeg: walkJpeg,
  png: walkPng,
  webp: walkWebp,
};

/** JPEG quality of the stored copy: text on a document stays sharp, and colour is not subsampled. */
const JPEG_QUALITY = 92;
const WEBP_QUALITY = 90;

/**
 * Checks an image's structure and size, then decodes it and encodes a new file of the same format: the stored copy
 * holds pixels only (no EXIF, GPS, XMP, IPTC, comments or unknown chunks), turned upright as its EXIF orientation
 * said, in sRGB.
 */
export async function cleanImage(bytes: Buffer, format: ImageFormat, limits: ImageLimits): Promise<CleanImage> {
  const layout = WALKS[format](bytes);
  refuseForeignSignatures(bytes, layout);
  const { width, height } = dimensionsOf(bytes);
  if (Math.min(width, height) < limits.minShortSide) {
    throw new DocumentFileRefusal(
      'image_too_small',
      `The image is ${width}x${height} pixels; its shorter side must be at least ${limits.minShortSide} pixels: take the photo closer or at a higher resolution`,
    );
  }
  // Read from the header: a small file can declare an image far too large to decode.
  if (width * height > limits.maxPixels) {
    throw new DocumentFileRefusal(
      'too_large',
      `The image is ${width}x${height} pixels; at most ${PIXELS.format(limits.maxPixels)} pixels (${megapixels(limits.maxPixels)} megapixels) are accepted: send a smaller copy`,
    );
  }
  try {
    const pipeline = sharp(bytes, { failOn: 'error', limitInputPixels: limits.maxPixels, autoOrient: true, pages: 1 });
    const encoded =
      format === 'jpeg'
        ? pipeline.jpeg({ quality: JPEG_QUALITY, chromaSubsampling: '4:4:4' })
        : format === 'png'
          ? pipeline.png()
          : pipeline.webp(layout.lossless ? { lossless: true } : { quality: WEBP_QUALITY });
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    return { bytes: data, width: info.width, height: info.height };
  } catch (error) {
    throw unreadable(INCOMPLETE_FILE, error);
  }
}

const PIXELS = new Intl.NumberFormat('en-US');

function megapixels(pixels: number): string {
  return new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }).format(pixels / 1_000_000);
}

function dimensionsOf(bytes: Buffer): { width: number; height: number } {
  try {
    const { width, height } = imageSize(bytes);
    if (width > 0 && height > 0) return { width, height };
  } catch (error) {
    throw unreadable(INCOMPLETE_FILE, error);
  }
  throw unreadable(INCOMPLETE_FILE);
}
