import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';

// The documents a person sends, made by the test (nothing binary is committed): photos with sharp, papers with
// pdf-lib. Each carries a marker text so a test can look for it in what is stored.

/** A photo of `width` x `height` (PNG or JPEG) with `marker` written on it and in its metadata. */
export async function photo(marker: string, { width = 720, height = 960, format = 'png' as 'png' | 'jpeg' } = {}) {
  const image = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 180, b: 150 } } }).composite([
    {
      input: Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect x="40" y="40" width="${Math.floor(width / 2)}" height="${Math.floor(height / 3)}" fill="#335"/><text x="40" y="${height - 60}" font-size="32">${marker}</text></svg>`,
      ),
    },
  ]);
  return format === 'png' ? image.png().toBuffer() : image.jpeg().toBuffer();
}

/** A PDF of `pages` pages whose text includes `marker`. */
export async function paper(marker: string, pages = 1): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(marker);
  for (let page = 0; page < pages; page += 1) pdf.addPage([595, 842]).drawText(`${marker} page ${page + 1}`);
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}

/** A one-page PDF named `<marker>.pdf`, as a file input takes it. */
export async function paperFile(marker: string) {
  return { name: `${marker}.pdf`, mimeType: 'application/pdf', buffer: await paper(marker) };
}

/** Every stored file under `directory`, with its bytes. */
export async function storedFiles(directory: string): Promise<Array<{ path: string; bytes: Buffer }>> {
  const names = await readdir(directory, { recursive: true }).catch(() => [] as string[]);
  const files: Array<{ path: string; bytes: Buffer }> = [];
  for (const name of names) {
    const bytes = await readFile(path.join(directory, name)).catch(() => undefined);
    if (bytes !== undefined) files.push({ path: name, bytes });
  }
  return files;
}
