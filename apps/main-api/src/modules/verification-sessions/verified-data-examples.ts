// OpenAPI examples of `verifiedOutputs`, a session read with `expand=verified_outputs` (docs/decisions.md#verified-data):
// fake people and companies, never real data.

export const verifiedOutputsExamples = [
  {
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
  {
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
  null,
];
