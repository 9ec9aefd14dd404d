import { type SessionLocale, sessionLocales } from '@platform/db';
import { escapeHtml } from '@platform/http';

// Every text the hosted page shows, in English and Kiswahili (docs/decisions.md#hosted-page-languages). A `{name}`
// in a text is filled in by `say`; both languages of a key name the same placeholders (strings.test.ts).

const en = {
  'title.kyc': 'Verify your identity',
  'title.kyb': 'Verify your business',
  'documentTitle.kyc': '{status}: verify your identity',
  'documentTitle.kyb': '{status}: verify your business',
  requestedBy: 'Requested by {app}',
  requesterFallback: 'the app that sent you here',
  testBadge: 'Test session',
  languageNav: 'Language',
  statusHeading: 'Status',
  documentsHeading: 'Documents you need',
  'documentsHeading.resend': 'Documents to send again',
  linkValidUntil: 'This link works until {time}.',
  reason: 'Reason:',

  'status.pending': 'Waiting for documents',
  'status.processing': 'Processing',
  'status.requires_input': 'More information needed',
  'status.verified': 'Verified',
  'status.rejected': 'Rejected',
  'status.expired': 'Expired',
  'status.canceled': 'Canceled',

  'next.pending': 'Have the documents listed below ready. The check starts once they are submitted.',
  'next.processing': 'Your documents are being checked. This page updates itself until there is a result.',
  'next.requires_input': 'Some documents need to be sent again.',
  'next.verified': 'All done. You can return to {app}.',
  'next.rejected': 'The verification was not successful. Contact {app} if you think this is a mistake.',
  'next.expired': 'This link has expired. Ask {app} for a new one.',
  'next.canceled': 'This verification was canceled. Ask {app} for a new link if you still need to verify.',

  'document.national_id_or_passport': 'National ID card or passport',
  'document.selfie': 'A selfie: a clear photo of your face',
  'document.certificate_of_incorporation': 'Certificate of incorporation',
  'document.cr12': 'CR12: the official list of directors and shareholders',
  'document.kra_pin_certificate': 'KRA PIN certificate of the business',
  'document.director_ids': 'National ID card or passport of each director',
  'resend.directors': 'Send the ID of every director again: the new files replace all the earlier ones.',

  'notice.submitted': 'The documents were submitted for checking.',
  'notice.approved': 'The verification was approved.',
  'notice.rejected': 'The verification was rejected.',
  'notice.resubmission_requested': 'New documents were requested.',
  'notice.moved_on': 'The session changed in the meantime, so nothing was done. Here is where it stands now.',
  'notice.form_expired': 'That form has expired, so nothing was done. Please try again.',
  'notice.sandbox_off': 'Sandbox controls are not available for this session.',
  'notice.consent_recorded': 'Thank you. Your consent was recorded.',
  'notice.consent_needed': 'Please read the notice and agree first. Nothing was done.',

  'notice.upload_failed':
    'The upload could not be read, so nothing was kept. Send at most 6 files at once, each at most 10 MB.',

  'capture.heading': 'Send your documents',
  'capture.intro.kyc':
    "Take the photos with your phone's camera or choose them from your files: JPEG, PNG or WebP, at least 600 pixels on the shorter side, at most 10 MB each.",
  'capture.intro.kyb':
    'Choose photos (JPEG, PNG or WebP, at least 600 pixels on the shorter side) or PDF files (at most 20 pages), at most 10 MB each.',
  'capture.resend':
    'Send again what the reason above asks for (or any document you want to replace). Documents you sent before are kept unless you choose a new file for them.',
  'capture.resendOnly': 'Send only the documents listed above. Your other documents are kept as you sent them.',
  'capture.detailsKept': 'The details you submitted before are kept.',
  'capture.detailsLegend.kyc': 'Your ID document',
  'capture.detailsLegend.kyb': 'Your business',
  'capture.idType': 'Type of ID document',
  'capture.choose': 'Choose one',
  'capture.idNumber': 'ID document number',
  'capture.registrationNumber': 'Registration number (for example PVT-AB12CD3)',
  'capture.companyName': 'Company name',
  'capture.filesLegend': 'Photos and files',
  'capture.received': 'Received: {files}. Choose a file only to replace it.',
  'capture.send': 'Upload and review',
  'capture.errorSummary': 'There is a problem',
  'capture.errorTitle': 'Error:',

  'idType.national_id': 'National ID card',
  'idType.passport': 'Passport',
  'idType.alien_id': 'Alien ID card',

  'kind.id_document_front': 'Front of the ID document (for a passport, the photo page)',
  'kind.id_document_back': 'Back of the ID document (not needed for a passport)',
  'kind.selfie': 'A selfie: a clear photo of your face',
  'kind.certificate_of_incorporation': 'Certificate of incorporation',
  'kind.cr12': 'CR12: the official list of directors and shareholders',
  'kind.kra_pin_certificate': 'KRA PIN certificate of the business',
  'kind.director_id': 'National ID card or passport of each director (you can choose several files)',

  'kindName.id_document_front': 'Front of the ID document',
  'kindName.id_document_back': 'Back of the ID document',
  'kindName.selfie': 'Selfie',
  'kindName.certificate_of_incorporation': 'Certificate of incorporation',
  'kindName.cr12': 'CR12 (list of directors)',
  'kindName.kra_pin_certificate': 'KRA PIN certificate',
  'kindName.director_id': "Director's ID",

  'error.required.file': 'Choose a file.',
  'error.required.idType': 'Choose the type of ID document.',
  'error.required.idNumber': 'Enter the number of the ID document.',
  'error.invalid.idNumber': 'This is not a valid number for this type of ID document.',
  'error.required.registrationNumber': 'Enter the registration number.',
  'error.invalid.registrationNumber':
    'This is not a Business Registration Service number (such as PVT-AB12CD3 or CPR/2015/123456).',
  'error.invalid.companyName': 'Enter the company name, at most 200 characters.',
  'error.unsupported_media_type.kyc': 'This type of file is not accepted: choose a JPEG, PNG or WebP photo.',
  'error.unsupported_media_type.kyb': 'This type of file is not accepted: choose a PDF, or a JPEG, PNG or WebP photo.',
  'error.too_large': 'The file is larger than 10 MB.',
  'error.image_too_small': 'The photo is too small: it must be at least 600 pixels on its shorter side.',
  'error.too_many_pages': 'The PDF has more than 20 pages.',
  'error.unreadable': 'The file could not be read; it may be damaged. Take or choose it again.',
  'error.resend': 'Choose a new file: this document must be sent again.',

  'review.heading': 'Check before you submit',
  'review.intro': 'This is what we received. Submit it for checking, or change it first.',
  'review.documents': 'Documents received',
  'review.sentAgain': 'Sent again',
  'review.kept': 'Kept from before',
  'review.submit': 'Submit',
  'review.change': 'Change',

  'final.continue': 'Continue to {app}',

  'sandbox.heading': 'Sandbox controls',
  'sandbox.introTest':
    'This is a test session: nothing is checked. Use these controls to play the part of the verification team.',
  'sandbox.introLive': 'Sandbox controls are switched on for live sessions on this server: nothing is checked.',
  'sandbox.finished': 'This session is finished; there is nothing more to do.',
  'sandbox.submit': 'Submit',
  'sandbox.approve': 'Approve',
  'sandbox.reject': 'Reject',
  'sandbox.request_resubmission': 'Request resubmission',
  'sandbox.rejectReason': 'Reason for rejecting (optional)',
  'sandbox.resubmissionReason': 'What should the end user send again? (optional)',

  'consent.heading': 'Before you start: your personal data',
  'consent.intro': 'Please read how your personal data will be used. Nothing is collected until you agree.',
  'consent.whoHeading': 'Who collects and who processes it',
  'consent.controller': '{controller} collects your data and decides how it is used (the data controller).',
  'consent.processor':
    'The verification service that runs this page processes it for {controller} (the data processor).',
  'consent.subProcessor.kyc':
    'Smile ID (Smile Identity) checks your ID document and selfie for the verification service, against the records of the ID issuer (a sub-processor).',
  'consent.subProcessor.kyb':
    "Smile ID (Smile Identity) checks your company's registration number for the verification service, against the business registry (a sub-processor).",
  'consent.privacyNotice': "Read {controller}'s privacy notice",
  'consent.changed':
    'This notice has changed since you agreed to it. Please read it again: nothing more is collected until you agree.',
  'consent.whatHeading': 'What is collected',
  'consent.what.kyc': 'Photos of your ID document (front and back, or your passport), your ID number and a selfie.',
  'consent.what.kyb': "Your company's registration details and documents, and the ID documents of its directors.",
  'consent.whyHeading': 'Why',
  'consent.why.kyc': 'To verify your identity for {controller}, to prevent fraud and to meet legal obligations.',
  'consent.why.kyb': 'To verify your business for {controller}, to prevent fraud and to meet legal obligations.',
  'consent.keepHeading': 'How long it is kept',
  'consent.keep':
    'Your documents and the details you submit are deleted {days} days after the verification is finished.',
  'consent.keepOneDay':
    'Your documents and the details you submit are deleted one day after the verification is finished.',
  'consent.rightsHeading': 'Your rights',
  'consent.rights':
    'Under the Data Protection Act, 2019 you may ask to see your data, to have it corrected or deleted, and object to its use. To do so, contact {controller}.',
  'consent.complaint': 'You may also complain to the Office of the Data Protection Commissioner (ODPC).',
  'consent.agreeExplained': 'If you choose "I agree", your data will be used as described above.',
  'consent.agree': 'I agree',
  'consent.decline': 'I do not agree',

  'declined.title': 'You did not agree',
  'declined.nothingCollected': 'Nothing was collected, and this verification was canceled.',
  'declined.nothingMoreCollected': 'Nothing more was collected, and this verification was canceled.',
  'declined.otherWay': 'To verify another way, or to start again, contact {app}.',

  'notFound.title': 'Verification not found',
  'notFound.body':
    'This verification link is not valid. Check that you opened the whole link, or ask the app that sent you here for a new one.',
} as const;

export type StringKey = keyof typeof en;

const sw: Record<StringKey, string> = {
  'title.kyc': 'Thibitisha utambulisho wako',
  'title.kyb': 'Thibitisha biashara yako',
  'documentTitle.kyc': '{status}: thibitisha utambulisho wako',
  'documentTitle.kyb': '{status}: thibitisha biashara yako',
  requestedBy: 'Imeombwa na {app}',
  requesterFallback: 'programu iliyokuleta hapa',
  testBadge: 'Kipindi cha majaribio',
  languageNav: 'Lugha',
  statusHeading: 'Hali',
  documentsHeading: 'Hati unazohitaji',
  'documentsHeading.resend': 'Hati za kutuma tena',
  linkValidUntil: 'Kiungo hiki kinafanya kazi hadi {time}.',
  reason: 'Sababu:',

  'status.pending': 'Inasubiri hati',
  'status.processing': 'Inashughulikiwa',
  'status.requires_input': 'Maelezo zaidi yanahitajika',
  'status.verified': 'Imethibitishwa',
  'status.rejected': 'Imekataliwa',
  'status.expired': 'Muda wake umeisha',
  'status.canceled': 'Imeghairiwa',

  'next.pending': 'Andaa hati zilizoorodheshwa hapa chini. Ukaguzi utaanza baada ya kuziwasilisha.',
  'next.processing': 'Hati zako zinakaguliwa. Ukurasa huu unajisasisha wenyewe hadi matokeo yapatikane.',
  'next.requires_input': 'Baadhi ya hati zinahitaji kutumwa tena.',
  'next.verified': 'Umemaliza. Unaweza kurudi kwenye {app}.',
  'next.rejected': 'Uthibitishaji haukufanikiwa. Wasiliana na {app} ikiwa unadhani kuna kosa.',
  'next.expired': 'Muda wa kiungo hiki umeisha. Omba kiungo kipya kutoka kwa {app}.',
  'next.canceled':
    'Uthibitishaji huu umeghairiwa. Ikiwa bado unahitaji kuthibitisha, omba kiungo kipya kutoka kwa {app}.',

  'document.national_id_or_passport': 'Kitambulisho cha taifa au pasipoti',
  'document.selfie': 'Selfie: picha ya uso wako iliyo wazi',
  'document.certificate_of_incorporation': 'Cheti cha usajili wa kampuni',
  'document.cr12': 'CR12: orodha rasmi ya wakurugenzi na wanahisa',
  'document.kra_pin_certificate': 'Cheti cha KRA PIN cha biashara',
  'document.director_ids': 'Kitambulisho cha taifa au pasipoti ya kila mkurugenzi',
  'resend.directors': 'Tuma tena kitambulisho cha kila mkurugenzi: faili mpya zinachukua nafasi ya zote za awali.',

  'notice.submitted': 'Hati zimewasilishwa kwa ukaguzi.',
  'notice.approved': 'Uthibitishaji umeidhinishwa.',
  'notice.rejected': 'Uthibitishaji umekataliwa.',
  'notice.resubmission_requested': 'Hati mpya zimeombwa.',
  'notice.moved_on': 'Hali ilibadilika wakati huo, kwa hiyo hakuna kilichofanyika. Hii ndiyo hali ilivyo sasa.',
  'notice.form_expired': 'Muda wa fomu hiyo umeisha, kwa hiyo hakuna kilichofanyika. Tafadhali jaribu tena.',
  'notice.sandbox_off': 'Vidhibiti vya sandbox havipatikani kwa kipindi hiki.',
  'notice.consent_recorded': 'Asante. Idhini yako imerekodiwa.',
  'notice.consent_needed': 'Tafadhali soma ilani na ukubali kwanza. Hakuna kilichofanyika.',

  'notice.upload_failed':
    'Upakiaji haukuweza kusomwa, kwa hiyo hakuna kilichohifadhiwa. Tuma faili zisizozidi 6 kwa wakati mmoja, kila moja isizidi MB 10.',

  'capture.heading': 'Tuma hati zako',
  'capture.intro.kyc':
    'Piga picha kwa kamera ya simu yako au uzichague kwenye faili zako: JPEG, PNG au WebP, angalau pikseli 600 upande mfupi, kila moja isizidi MB 10.',
  'capture.intro.kyb':
    'Chagua picha (JPEG, PNG au WebP, angalau pikseli 600 upande mfupi) au faili za PDF (zisizozidi kurasa 20), kila moja isizidi MB 10.',
  'capture.resend':
    'Tuma tena kile ambacho sababu iliyo hapo juu inaomba (au hati yoyote unayotaka kubadilisha). Hati ulizotuma awali zinabaki isipokuwa uchague faili mpya badala yake.',
  'capture.resendOnly': 'Tuma hati zilizoorodheshwa hapo juu pekee. Hati zako nyingine zinabaki kama ulivyozituma.',
  'capture.detailsKept': 'Maelezo uliyowasilisha awali yanabaki.',
  'capture.detailsLegend.kyc': 'Kitambulisho chako',
  'capture.detailsLegend.kyb': 'Biashara yako',
  'capture.idType': 'Aina ya kitambulisho',
  'capture.choose': 'Chagua moja',
  'capture.idNumber': 'Nambari ya kitambulisho',
  'capture.registrationNumber': 'Nambari ya usajili (kwa mfano PVT-AB12CD3)',
  'capture.companyName': 'Jina la kampuni',
  'capture.filesLegend': 'Picha na faili',
  'capture.received': 'Imepokelewa: {files}. Chagua faili tu ikiwa unataka kuibadilisha.',
  'capture.send': 'Pakia na uhakiki',
  'capture.errorSummary': 'Kuna tatizo',
  'capture.errorTitle': 'Hitilafu:',

  'idType.national_id': 'Kitambulisho cha taifa',
  'idType.passport': 'Pasipoti',
  'idType.alien_id': 'Kitambulisho cha mgeni',

  'kind.id_document_front': 'Upande wa mbele wa kitambulisho (kwa pasipoti, ukurasa wenye picha)',
  'kind.id_document_back': 'Upande wa nyuma wa kitambulisho (hauhitajiki kwa pasipoti)',
  'kind.selfie': 'Selfie: picha ya uso wako iliyo wazi',
  'kind.certificate_of_incorporation': 'Cheti cha usajili wa kampuni',
  'kind.cr12': 'CR12: orodha rasmi ya wakurugenzi na wanahisa',
  'kind.kra_pin_certificate': 'Cheti cha KRA PIN cha biashara',
  'kind.director_id': 'Kitambulisho cha taifa au pasipoti ya kila mkurugenzi (unaweza kuchagua faili kadhaa)',

  'kindName.id_document_front': 'Upande wa mbele wa kitambulisho',
  'kindName.id_document_back': 'Upande wa nyuma wa kitambulisho',
  'kindName.selfie': 'Selfie (picha ya uso)',
  'kindName.certificate_of_incorporation': 'Cheti cha usajili wa kampuni',
  'kindName.cr12': 'CR12 (orodha ya wakurugenzi)',
  'kindName.kra_pin_certificate': 'Cheti cha KRA PIN',
  'kindName.director_id': 'Kitambulisho cha mkurugenzi',

  'error.required.file': 'Chagua faili.',
  'error.required.idType': 'Chagua aina ya kitambulisho.',
  'error.required.idNumber': 'Weka nambari ya kitambulisho.',
  'error.invalid.idNumber': 'Hii si nambari sahihi kwa aina hii ya kitambulisho.',
  'error.required.registrationNumber': 'Weka nambari ya usajili.',
  'error.invalid.registrationNumber':
    'Hii si nambari ya Huduma ya Usajili wa Biashara (kama PVT-AB12CD3 au CPR/2015/123456).',
  'error.invalid.companyName': 'Weka jina la kampuni, lisilozidi herufi 200.',
  'error.unsupported_media_type.kyc': 'Aina hii ya faili haikubaliwi: chagua picha ya JPEG, PNG au WebP.',
  'error.unsupported_media_type.kyb': 'Aina hii ya faili haikubaliwi: chagua PDF, au picha ya JPEG, PNG au WebP.',
  'error.too_large': 'Faili ni kubwa kuliko MB 10.',
  'error.image_too_small': 'Picha ni ndogo mno: lazima iwe angalau pikseli 600 upande wake mfupi.',
  'error.too_many_pages': 'PDF ina kurasa zaidi ya 20.',
  'error.unreadable': 'Faili haikuweza kusomwa; huenda imeharibika. Piga picha au uichague tena.',
  'error.resend': 'Chagua faili mpya: hati hii lazima itumwe tena.',

  'review.heading': 'Hakiki kabla ya kuwasilisha',
  'review.intro': 'Hiki ndicho tulichopokea. Kiwasilishe kwa ukaguzi, au ukibadilishe kwanza.',
  'review.documents': 'Hati zilizopokelewa',
  'review.sentAgain': 'Zilizotumwa tena',
  'review.kept': 'Zilizobaki kutoka awali',
  'review.submit': 'Wasilisha',
  'review.change': 'Badilisha',

  'final.continue': 'Endelea kwenye {app}',

  'sandbox.heading': 'Vidhibiti vya sandbox',
  'sandbox.introTest':
    'Hiki ni kipindi cha majaribio: hakuna kinachokaguliwa. Tumia vidhibiti hivi kuchukua nafasi ya timu ya uthibitishaji.',
  'sandbox.introLive': 'Vidhibiti vya sandbox vimewashwa kwa vipindi halisi kwenye seva hii: hakuna kinachokaguliwa.',
  'sandbox.finished': 'Kipindi hiki kimekamilika; hakuna kingine cha kufanya.',
  'sandbox.submit': 'Wasilisha',
  'sandbox.approve': 'Idhinisha',
  'sandbox.reject': 'Kataa',
  'sandbox.request_resubmission': 'Omba hati tena',
  'sandbox.rejectReason': 'Sababu ya kukataa (si lazima)',
  'sandbox.resubmissionReason': 'Mtumiaji atume nini tena? (si lazima)',

  'consent.heading': 'Kabla hujaanza: taarifa zako binafsi',
  'consent.intro': 'Tafadhali soma jinsi taarifa zako binafsi zitakavyotumika. Hakuna kinachokusanywa hadi ukubali.',
  'consent.whoHeading': 'Nani anazikusanya na nani anazichakata',
  'consent.controller': '{controller} inakusanya taarifa zako na kuamua jinsi zitakavyotumika (mdhibiti wa data).',
  'consent.processor':
    'Huduma ya uthibitishaji inayoendesha ukurasa huu inazichakata kwa niaba ya {controller} (mchakataji wa data).',
  'consent.subProcessor.kyc':
    'Smile ID (Smile Identity) hukagua hati yako ya utambulisho na picha yako ya uso kwa niaba ya huduma ya uthibitishaji, dhidi ya rekodi za mtoaji wa kitambulisho (mchakataji mdogo wa data).',
  'consent.subProcessor.kyb':
    'Smile ID (Smile Identity) hukagua nambari ya usajili ya kampuni yako kwa niaba ya huduma ya uthibitishaji, dhidi ya sajili ya biashara (mchakataji mdogo wa data).',
  'consent.privacyNotice': 'Soma ilani ya faragha ya {controller}',
  'consent.changed':
    'Ilani hii imebadilika tangu ulipoikubali. Tafadhali isome tena: hakuna kitakachokusanywa zaidi hadi ukubali.',
  'consent.whatHeading': 'Kinachokusanywa',
  'consent.what.kyc':
    'Picha za kitambulisho chako (mbele na nyuma, au pasipoti yako), nambari ya kitambulisho chako na selfie.',
  'consent.what.kyb': 'Maelezo na hati za usajili wa kampuni yako, pamoja na vitambulisho vya wakurugenzi wake.',
  'consent.whyHeading': 'Kwa nini',
  'consent.why.kyc':
    'Ili kuthibitisha utambulisho wako kwa ajili ya {controller}, kuzuia ulaghai na kutimiza wajibu wa kisheria.',
  'consent.why.kyb':
    'Ili kuthibitisha biashara yako kwa ajili ya {controller}, kuzuia ulaghai na kutimiza wajibu wa kisheria.',
  'consent.keepHeading': 'Zinahifadhiwa kwa muda gani',
  'consent.keep': 'Hati zako na maelezo unayowasilisha yatafutwa siku {days} baada ya uthibitishaji kukamilika.',
  'consent.keepOneDay': 'Hati zako na maelezo unayowasilisha yatafutwa siku moja baada ya uthibitishaji kukamilika.',
  'consent.rightsHeading': 'Haki zako',
  'consent.rights':
    'Kwa mujibu wa Sheria ya Ulinzi wa Data ya mwaka 2019, unaweza kuomba kuona taarifa zako, kuzirekebisha au kuzifuta, na kupinga matumizi yake. Ili kufanya hivyo, wasiliana na {controller}.',
  'consent.complaint': 'Pia unaweza kuwasilisha malalamiko kwa Ofisi ya Kamishna wa Ulinzi wa Data (ODPC).',
  'consent.agreeExplained': 'Ukichagua "Nakubali", taarifa zako zitatumika kama ilivyoelezwa hapo juu.',
  'consent.agree': 'Nakubali',
  'consent.decline': 'Sikubali',

  'declined.title': 'Hukukubali',
  'declined.nothingCollected': 'Hakuna kilichokusanywa, na uthibitishaji huu umeghairiwa.',
  'declined.nothingMoreCollected': 'Hakuna kilichokusanywa zaidi, na uthibitishaji huu umeghairiwa.',
  'declined.otherWay': 'Ili kuthibitisha kwa njia nyingine, au kuanza upya, wasiliana na {app}.',

  'notFound.title': 'Uthibitishaji haukupatikana',
  'notFound.body':
    'Kiungo hiki cha uthibitishaji si sahihi. Hakikisha umefungua kiungo kizima, au omba kiungo kipya kutoka kwa programu iliyokuleta hapa.',
};

/** The page's texts by language; strings.test.ts checks that every language has every key, none empty. */
export const catalog: Readonly<Record<SessionLocale, Readonly<Record<StringKey, string>>>> = { en, sw };

export function isStringKey(key: string): key is StringKey {
  return Object.hasOwn(en, key);
}

/** Each language named in itself, for the language switch. */
export const languageNames: Readonly<Record<SessionLocale, string>> = { en: 'English', sw: 'Kiswahili' };

/** `?lang=` when it names a language of the page; anything else is ignored. */
export function pageLanguageOf(lang: unknown): SessionLocale | undefined {
  return sessionLocales.find((locale) => locale === lang);
}

/** A value to put into a text: plain text (escaped) or trusted markup made here (`{ html }`). */
type Filler = string | number | { html: string };

/**
 * The text of `key` in `locale` as HTML: the text escaped, each `{name}` replaced by its escaped value (or its
 * markup). A placeholder without a value stays visible rather than silently disappearing.
 */
export function say(locale: SessionLocale, key: StringKey, values: Record<string, Filler> = {}): string {
  return escapeHtml(catalog[locale][key]).replace(/\{(\w+)\}/g, (placeholder, name: string) => {
    const value = values[name];
    if (value === undefined) return placeholder;
    return typeof value === 'object' ? value.html : escapeHtml(String(value));
  });
}

/** The text of `key` in `locale` with its placeholders filled, as plain text (for the document title). */
export function sayText(locale: SessionLocale, key: StringKey, values: Record<string, string> = {}): string {
  return catalog[locale][key].replace(/\{(\w+)\}/g, (placeholder, name: string) => values[name] ?? placeholder);
}
