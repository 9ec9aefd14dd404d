import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createDocumentVault,
  createLocalFolderObjectStore,
  type DocumentVault,
  generateDocumentKeyEntry,
  parseDocumentKeyring,
} from '@platform/document-vault';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import type { BackendApp } from '../src/app.js';

// Identity-document fixtures made by the tests (nothing binary is committed): images with sharp, PDFs with
// pdf-lib, and multipart bodies built by hand.

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG of `width` x `height` with a little texture, so that it is a real picture and not one flat colour. */
export async function pngImage(width = 600, height = 800, text = ''): Promise<Buffer> {
  const image = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 180, b: 150 } } }).composite([
    {
      input: Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect x="20" y="20" width="${Math.floor(width / 2)}" height="${Math.floor(height / 3)}" fill="#335"/><text x="30" y="${height - 40}" font-size="24">${text}</text></svg>`,
      ),
    },
  ]);
  return image.png().toBuffer();
}

export async function jpegImage(width = 600, height = 800): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 90, g: 120, b: 160 } } })
    .jpeg()
    .toBuffer();
}

/** A PDF of `pages` pages with a line of text on each. */
export async function pdfDocument(pages = 1): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  for (let page = 0; page < pages; page += 1) pdf.addPage([595, 842]).drawText(`Certificate page ${page + 1}`);
  return Buffer.from(await pdf.save());
}

/** A file part, or a text field when it has no `filename`. */
export type FormPart =
  | { field: string; filename: string; contentType: string; data: Buffer }
  | { field: string; filename?: undefined; data: Buffer | string };

/** A multipart/form-data body and its content type, for app.inject. */
export function multipart(parts: FormPart[]): { payload: Buffer; headers: { 'content-type': string } } {
  const boundary = `----backend-api-test-${Math.random().toString(16).slice(2)}`;
  const pieces: Buffer[] = [];
  for (const part of parts) {
    pieces.push(
      Buffer.from(
        part.filename === undefined
          ? `--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"\r\n\r\n`
          : `--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"; filename="${part.filename}"\r\n` +
              `Content-Type: ${part.contentType}\r\n\r\n`,
      ),
      Buffer.from(part.data),
      Buffer.from('\r\n'),
    );
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(pieces), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** POST /v1/verify/sessions/:id/documents with `kind` and one file. */
export function uploadDocument(
  app: BackendApp,
  apiKey: string,
  sessionId: string,
  kind: string,
  data: Buffer,
  contentType = 'image/png',
) {
  const { payload, headers } = multipart([
    { field: 'kind', data: kind },
    { field: 'file', filename: 'document', contentType, data },
  ]);
  return app.inject({
    method: 'POST',
    url: `/v1/verify/sessions/${sessionId}/documents`,
    headers: { 'x-service-api-key': apiKey, ...headers },
    payload,
  });
}

/** A vault over a fresh temporary folder, to look at what is stored; `remove` deletes the folder. */
export async function temporaryVault(): Promise<{
  vault: DocumentVault;
  directory: string;
  remove: () => Promise<void>;
}> {
  const directory = await mkdtemp(path.join(tmpdir(), 'backend-api-documents-'));
  const vault = createDocumentVault({
    keyring: parseDocumentKeyring(generateDocumentKeyEntry('test')),
    store: createLocalFolderObjectStore({ directory }),
  });
  return { vault, directory, remove: () => rm(directory, { recursive: true, force: true }) };
}

/** Every file under `directory` (relative paths), with its bytes; none when the folder does not exist. */
export async function storedFiles(directory: string): Promise<Array<{ path: string; bytes: Buffer }>> {
  let names: string[];
  try {
    names = await readdir(directory, { recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files: Array<{ path: string; bytes: Buffer }> = [];
  for (const name of names) {
    try {
      files.push({ path: name, bytes: await readFile(path.join(directory, name)) });
    } catch (error) {
      // A folder, or a file erased between the listing and the read (a job may be erasing while a test looks).
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EISDIR' && code !== 'ENOENT') throw error;
    }
  }
  return files;
}
