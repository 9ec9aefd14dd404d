import { Type } from '@sinclair/typebox';

export const SessionExportParams = Type.Object({
  id: Type.String({ format: 'uuid', description: 'Verification session identifier (UUID).' }),
});

export const ExportKeySetSchema = Type.Object(
  {
    keys: Type.Array(
      Type.Object({
        kty: Type.Literal('OKP'),
        crv: Type.Literal('Ed25519'),
        x: Type.String({ description: 'The public key, base64url.' }),
        kid: Type.String({ description: 'Its RFC 7638 thumbprint, as manifest.json names it.' }),
        alg: Type.Literal('EdDSA'),
        use: Type.Literal('sig'),
      }),
      { description: 'The current signing key first.' },
    ),
  },
  {
    examples: [
      {
        keys: [
          {
            kty: 'OKP',
            crv: 'Ed25519',
            x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
            kid: 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k',
            alg: 'EdDSA',
            use: 'sig',
          },
        ],
      },
    ],
  },
);
