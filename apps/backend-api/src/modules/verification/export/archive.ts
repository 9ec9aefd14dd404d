import { createHash, sign } from 'node:crypto';
import { zipSync } from 'fflate';
import type { ExportSigningKey } from './signing-keys.js';

// The export archive (docs/decisions.md#verification-export): the files, manifest.json naming each with its SHA-256
// and size, and manifest.sig, an Ed25519 signature of manifest.json's exact bytes. Built in memory: a session holds a
// handful of documents of at most 10 MiB each.

export interface ArchiveFile {
  name: string;
  bytes: Uint8Array;
}

interface ManifestFile {
  name: string;
  sha256: string;
  size: number;
}

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`, 'utf8');

export function jsonFile(name: string, value: unknown): ArchiveFile {
  return { name, bytes: json(value) };
}

/** The ZIP of `files`, manifest.json (`manifest` with the files' hashes and `keyId`) and manifest.sig. */
export function signedArchive(
  files: readonly ArchiveFile[],
  manifest: Record<string, unknown>,
  key: ExportSigningKey,
): { zip: Uint8Array; manifest: Buffer; signature: Buffer } {
  const listed: ManifestFile[] = files.map((file) => ({
    name: file.name,
    sha256: createHash('sha256').update(file.bytes).digest('hex'),
    size: file.bytes.byteLength,
  }));
  const manifestBytes = json({ ...manifest, signature: { alg: 'EdDSA', keyId: key.kid }, files: listed });
  const signature = sign(null, manifestBytes, key.privateKey);
  const entries: Record<string, Uint8Array> = {};
  for (const file of files) entries[file.name] = file.bytes;
  entries['manifest.json'] = manifestBytes;
  entries['manifest.sig'] = signature;
  // Documents are compressed images and PDFs already: store them, deflate only the JSON.
  const zip = zipSync(
    Object.fromEntries(
      Object.entries(entries).map(([name, bytes]) => [name, [bytes, { level: name.endsWith('.json') ? 6 : 0 }]]),
    ),
    { mtime: new Date('1980-01-01T00:00:00Z') },
  );
  return { zip, manifest: manifestBytes, signature };
}
