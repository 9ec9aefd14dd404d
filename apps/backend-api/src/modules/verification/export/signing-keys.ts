import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  hkdfSync,
  type KeyObject,
} from 'node:crypto';
import type { DocumentKeyring } from '@platform/document-vault';

// The keys that sign export manifests (docs/decisions.md#verification-export): VERIFICATION_EXPORT_SIGNING_KEY when
// set, else Ed25519 keys derived with HKDF from the document vault's master keys, so every instance signs alike with
// no new secret. The current vault key signs; every vault key's public key is published (GET /v1/verify/export-keys),
// so an archive signed before a key rotation still verifies.

const DERIVATION_INFO = Buffer.from('platform:verification-export-signing-key:v1');
/** The DER of a PKCS#8 Ed25519 private key before its 32-byte seed (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface ExportSigningKey {
  /** The RFC 7638 thumbprint of the public key. */
  kid: string;
  privateKey: KeyObject;
}

export interface PublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
}

export interface ExportSigningKeys {
  current: ExportSigningKey;
  /** The public keys, the current one first. */
  jwks: { keys: PublicJwk[] };
}

function ed25519FromSeed(seed: Buffer): KeyObject {
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

/** The public JWK of an Ed25519 private key, its kid the RFC 7638 thumbprint. */
export function publicJwkOf(privateKey: KeyObject): PublicJwk {
  const { x } = createPublicKey(privateKey).export({ format: 'jwk' });
  if (x === undefined) throw new Error('not an Ed25519 key');
  // RFC 7638: the required members in lexicographic order, no spaces.
  const kid = createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`).digest('base64url');
  return { kty: 'OKP', crv: 'Ed25519', x, kid, alg: 'EdDSA', use: 'sig' };
}

export function exportSigningKeysOf(options: {
  pem?: string | undefined;
  keyring?: DocumentKeyring | undefined;
}): ExportSigningKeys {
  let privateKeys: KeyObject[];
  if (options.pem !== undefined) {
    privateKeys = [createPrivateKey(options.pem)];
  } else if (options.keyring !== undefined) {
    const { keyring } = options;
    const masters = [keyring.current, ...[...keyring.keys.values()].filter((key) => key.id !== keyring.current.id)];
    privateKeys = masters.map((master) =>
      ed25519FromSeed(Buffer.from(hkdfSync('sha256', master.key, Buffer.alloc(0), DERIVATION_INFO, 32))),
    );
  } else {
    // No vault key either (one local process): a key for this process, as the vault itself does.
    privateKeys = [generateKeyPairSync('ed25519').privateKey];
  }
  const jwks = privateKeys.map(publicJwkOf);
  const [first] = privateKeys;
  const [firstJwk] = jwks;
  if (first === undefined || firstJwk === undefined) throw new Error('no signing key');
  return { current: { kid: firstJwk.kid, privateKey: first }, jwks: { keys: jwks } };
}
