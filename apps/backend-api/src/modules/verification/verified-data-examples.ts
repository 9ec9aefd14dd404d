// OpenAPI examples of a session read with `expand=verified_outputs` (docs/decisions.md#verified-data): fake people and
// companies, never real data.

const session = {
  verificationUrl: 'https://verify.example.com/session/',
  environment: 'live',
  status: 'verified',
  appName: 'Acme Wallet',
  callbackUrl: 'https://api.example.com/hooks/verification',
  locale: 'en',
  returnUrl: null,
  privacyNoticeUrl: null,
  lastError: null,
  lastErrorCode: null,
  resubmitDocuments: [],
  createdAt: '2026-03-02T09:00:00.000Z',
  updatedAt: '2026-03-02T09:04:00.000Z',
  expiresAt: '2026-03-03T09:00:00.000Z',
  completedAt: '2026-03-02T09:04:00.000Z',
  submittedAt: '2026-03-02T09:03:00.000Z',
  personalDataErasedAt: null,
} as const;

const kycId = '4f1c2b9e-8d3a-4c51-9e0f-2a6b7c8d9e10';
const kybId = '7a2d3c4b-1e5f-4a6b-8c7d-9e0f1a2b3c4d';

export const verifiedSessionExamples = [
  {
    success: true,
    data: {
      ...session,
      sessionId: kycId,
      verificationUrl: `${session.verificationUrl}${kycId}`,
      type: 'kyc',
      externalEndUserId: 'user-42',
      requiredDocuments: ['id_document_front', 'id_document_back', 'selfie'],
      price: 50,
      checks: [
        {
          kind: 'id_registry',
          source: 'smile_id',
          outcome: 'passed',
          code: null,
          summary: 'The ID number and names match the registry',
          details: { matched: ['idNumber', 'firstName', 'lastName', 'dateOfBirth'] },
          createdAt: '2026-03-02T09:03:30.000Z',
        },
        {
          kind: 'face_match',
          source: 'smile_id',
          outcome: 'passed',
          code: null,
          summary: 'The selfie matches the registry photo',
          details: { score: 0.97 },
          createdAt: '2026-03-02T09:03:30.001Z',
        },
      ],
      verifiedOutputs: {
        type: 'kyc',
        person: {
          firstName: 'Amani',
          middleName: 'Wanjiru',
          lastName: 'Example',
          dateOfBirth: '1990-01-01',
          idType: 'national_id',
          idNumber: '00000000',
          documentExpiry: null,
          nationality: 'KEN',
          faceComparedWith: 'registry_photo',
        },
      },
    },
  },
  {
    success: true,
    data: {
      ...session,
      sessionId: kybId,
      verificationUrl: `${session.verificationUrl}${kybId}`,
      type: 'kyb',
      externalEndUserId: 'company-7',
      requiredDocuments: ['certificate_of_incorporation', 'cr12', 'kra_pin_certificate', 'director_ids'],
      price: 200,
      checks: [
        {
          kind: 'business_registry',
          source: 'smile_id',
          outcome: 'passed',
          code: null,
          summary: 'The registry lists the business as registered',
          details: {},
          createdAt: '2026-03-02T09:03:30.000Z',
        },
      ],
      verifiedOutputs: {
        type: 'kyb',
        business: {
          registeredName: 'Example Traders Limited',
          registrationNumber: 'PVT-EXAMPLE1',
          status: 'registered',
          registrationDate: '2015-06-30',
          directors: [{ name: 'Amani Example', role: 'director', sessionId: null, status: null }],
          beneficialOwners: [],
        },
      },
    },
  },
];
