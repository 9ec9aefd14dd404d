import type { dashboardOnboardingEn } from './dashboard-onboarding.en.js';

// The dashboard's onboarding texts in Kiswahili, joined into the Kiswahili catalog (sw.ts): every key of
// dashboard-onboarding.en.ts.

export const dashboardOnboardingSw = {
  'dashboard.onboarding.home.create': 'Unda shirika',
  'dashboard.onboarding.home.created':
    'Shirika {organization} limeundwa. Funguo zake za API za majaribio zinafanya kazi sasa, na salio la majaribio kwenye pochi yake ya majaribio.',
  'dashboard.onboarding.home.joined': 'Umejiunga na {organization}.',
  'dashboard.onboarding.create.title': 'Unda shirika',
  'dashboard.onboarding.create.intro':
    'Shirika ni biashara yako kwenye jukwaa: timu yake, funguo za API, pochi na ankara. Wewe unakuwa mmiliki wake. Funguo za API za majaribio zinafanya kazi mara moja, na salio la majaribio kwenye pochi ya majaribio; funguo halisi baada ya biashara kuthibitishwa.',
  'dashboard.onboarding.create.name': 'Jina la shirika',
  'dashboard.onboarding.create.nameHint': 'Kama wateja wako wanavyolijua, lisilozidi herufi 100.',
  'dashboard.onboarding.create.kraPin': 'KRA PIN (si lazima)',
  'dashboard.onboarding.create.kraPinHint': 'Herufi moja, tarakimu tisa na herufi moja, kama P051234567X.',
  'dashboard.onboarding.create.address': 'Anwani ya posta (si lazima)',
  'dashboard.onboarding.create.addressHint': 'Isiyozidi mistari 4, kama inavyochapishwa kwenye ankara.',
  'dashboard.onboarding.create.billingEmail': 'Barua pepe ya malipo (si lazima)',
  'dashboard.onboarding.create.billingEmailHint': 'Risiti, ankara na vikumbusho vinatumwa huko pamoja na kwa wamiliki.',
  'dashboard.onboarding.create.optionalLater': 'Sehemu zisizo za lazima zinaweza kujazwa baadaye.',
  'dashboard.onboarding.create.submit': 'Unda shirika',
  'dashboard.onboarding.create.problem': 'Shirika halikuundwa: sahihisha kilichowekwa alama hapa chini.',
  'dashboard.onboarding.create.invalid.name': 'Weka jina la herufi 1 hadi 100, bila herufi za udhibiti.',
  'dashboard.onboarding.create.invalid.kraPin':
    'Weka KRA PIN kama herufi moja, tarakimu tisa na herufi moja (kama P051234567X), au uiache tupu.',
  'dashboard.onboarding.create.invalid.address':
    'Weka mistari isiyozidi 4 na herufi zisizozidi 200, bila herufi za udhibiti, au uiache tupu.',
  'dashboard.onboarding.create.invalid.billingEmail':
    'Weka anwani ya barua pepe kama accounts@example.co.ke, au uiache tupu.',
  'dashboard.onboarding.invitation.title': 'Mwaliko',
  'dashboard.onboarding.invitation.heading': 'Mwaliko wa kujiunga na {organization}',
  'dashboard.onboarding.invitation.intro': '{inviter} amekualika ujiunge na {organization}.',
  'dashboard.onboarding.invitation.organization': 'Shirika',
  'dashboard.onboarding.invitation.role': 'Jukumu',
  'dashboard.onboarding.invitation.invitedBy': 'Aliyekualika',
  'dashboard.onboarding.invitation.sentTo': 'Umetumwa kwa',
  'dashboard.onboarding.invitation.expires': 'Unaisha',
  'dashboard.onboarding.invitation.formerMember': 'Mwanachama wa zamani',
  'dashboard.onboarding.invitation.acceptHint':
    'Ukikubali unakuwa mwanachama wa {organization} mwenye jukumu la {role}.',
  'dashboard.onboarding.invitation.accept': 'Kubali na ujiunge',
  'dashboard.onboarding.invitation.expired':
    'Muda wa mwaliko huu uliisha tarehe {time}, kwa hiyo hauwezi kukubaliwa tena. Mwombe aliyekualika akutumie mwingine.',
  'dashboard.onboarding.invitation.revoked':
    'Mwaliko huu uliondolewa na shirika, kwa hiyo hauwezi kukubaliwa tena. Muulize aliyekualika ikiwa bado unahitaji kujiunga.',
  'dashboard.onboarding.invitation.accepted': 'Mwaliko huu umekwisha kukubaliwa: hauwezi kutumika tena.',
  'dashboard.onboarding.invitation.otherAddress':
    'Mwaliko huu ulitumwa kwa anwani nyingine ya barua pepe, si ile uliyoingia nayo. Ingia kwa anwani uliyotumiwa, kisha ufungue kiungo tena.',
  'dashboard.onboarding.invitation.member': 'Tayari wewe ni mwanachama wa {organization}.',
  'dashboard.onboarding.invitation.home': 'Nenda Mwanzo',
  'dashboard.onboarding.activation.title': 'Kuanza huduma halisi',
  'dashboard.onboarding.activation.intro':
    'Funguo za API za majaribio na kuongeza salio la majaribio vinafanya kazi tangu mwanzo. Funguo halisi za API na kuongeza salio halisi vimefungwa hadi {organization} iwezeshwe: mmiliki anathibitisha biashara mara moja.',
  'dashboard.onboarding.activation.why':
    'Funguo halisi zinakagua watu halisi na kuhamisha pesa halisi, kwa hiyo jukwaa linathibitisha kwanza biashara iliyo nyuma yake: nambari yake ya usajili na jina la kampuni, cheti cha usajili, CR12 na cheti cha KRA PIN, na kitambulisho cha kila mkurugenzi.',
  'dashboard.onboarding.activation.stateHeading': 'Hali ilivyo',
  'dashboard.onboarding.activation.notStarted': 'Haijawezeshwa: uthibitishaji wa biashara haujaanzishwa.',
  'dashboard.onboarding.activation.pending':
    'Bado haijawezeshwa: uthibitishaji wa biashara uko wazi, unasubiri maelezo na hati.',
  'dashboard.onboarding.activation.requiresInput':
    'Bado haijawezeshwa: wakaguzi wameomba zaidi ({reason}). Endelea na uthibitishaji ili kukituma.',
  'dashboard.onboarding.activation.processing':
    'Bado haijawezeshwa: hati zinakaguliwa. Hakuna cha kufanya ila kusubiri uamuzi.',
  'dashboard.onboarding.activation.rejected':
    'Uthibitishaji wa mwisho wa biashara ulikataliwa ({reason}). Anzisha mpya.',
  'dashboard.onboarding.activation.ended': 'Uthibitishaji wa mwisho wa biashara ulimalizika ({status}). Anzisha mpya.',
  'dashboard.onboarding.activation.noReason': 'hakuna sababu iliyotolewa',
  'dashboard.onboarding.activation.openUntil': 'Uthibitishaji ulio wazi unaweza kukamilishwa hadi {time}.',
  'dashboard.onboarding.activation.activated':
    'Iliwezeshwa tarehe {time}: funguo halisi za API na kuongeza salio halisi vimefunguliwa.',
  'dashboard.onboarding.activation.developers': 'Unda funguo halisi za API kwenye ukurasa wa Wasanidi',
  'dashboard.onboarding.activation.start': 'Anzisha uthibitishaji wa biashara',
  'dashboard.onboarding.activation.continue': 'Endelea na uthibitishaji wa biashara',
  'dashboard.onboarding.activation.startHint':
    'Utapelekwa kwenye ukurasa wa uthibitishaji, ambapo utatoa maelezo na hati za biashara.',
  'dashboard.onboarding.activation.ownerOnly':
    'Ni mmiliki wa shirika pekee anayeweza kuanzisha uthibitishaji wa biashara.',
  'dashboard.onboarding.activation.unavailable':
    'Kuanza huduma halisi hakupatikani kwenye seva hii: haina uthibitishaji wa biashara ulioandaliwa.',
} as const satisfies Record<keyof typeof dashboardOnboardingEn, string>;
