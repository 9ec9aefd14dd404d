import { dashboardSw } from './dashboard.sw.js';
import { dashboardAccountSw } from './dashboard-account.sw.js';
import { dashboardBillingSw } from './dashboard-billing.sw.js';
import { dashboardDevelopersSw } from './dashboard-developers.sw.js';
import { dashboardOnboardingSw } from './dashboard-onboarding.sw.js';
import { dashboardTeamSw } from './dashboard-team.sw.js';
import type { en } from './en.js';
import { verifyDirectorsSw } from './verify-directors.sw.js';
import { verifyPersonSw } from './verify-person.sw.js';

// The Kiswahili catalog (docs/decisions.md#hosted-page-languages): the shared labels and every text of the hosted
// verification page. A page shown in Kiswahili can ask only for keys this catalog has (translate.tsx); the other
// pages are English only for now, and their texts join this catalog when they are offered in Kiswahili.

export const sw = {
  ...dashboardSw,
  ...dashboardAccountSw,
  ...dashboardDevelopersSw,
  ...dashboardTeamSw,
  ...dashboardOnboardingSw,
  ...dashboardBillingSw,
  ...verifyDirectorsSw,
  ...verifyPersonSw,
  // Labels shared by every page that names the thing.
  'documentKind.id_document_front': 'Upande wa mbele wa kitambulisho',
  'documentKind.id_document_back': 'Upande wa nyuma wa kitambulisho',
  'documentKind.selfie': 'Selfie (picha ya uso)',
  'documentKind.certificate_of_incorporation': 'Cheti cha usajili wa kampuni',
  'documentKind.cr12': 'CR12 (orodha ya wakurugenzi)',
  'documentKind.kra_pin_certificate': 'Cheti cha KRA PIN',
  'documentKind.director_id': 'Kitambulisho cha mkurugenzi',
  'idType.national_id': 'Kitambulisho cha taifa',
  'idType.passport': 'Pasipoti',
  'idType.alien_id': 'Kitambulisho cha mgeni',
  'verificationStatus.pending': 'Inasubiri hati',
  'verificationStatus.processing': 'Inashughulikiwa',
  'verificationStatus.requires_input': 'Maelezo zaidi yanahitajika',
  'verificationStatus.verified': 'Imethibitishwa',
  'verificationStatus.rejected': 'Imekataliwa',
  'verificationStatus.expired': 'Muda wake umeisha',
  'verificationStatus.canceled': 'Imeghairiwa',
  'requiredDocument.national_id_or_passport': 'Kitambulisho cha taifa au pasipoti',
  'requiredDocument.selfie': 'Selfie: picha ya uso wako iliyo wazi',
  'requiredDocument.certificate_of_incorporation': 'Cheti cha usajili wa kampuni',
  'requiredDocument.cr12': 'CR12: orodha rasmi ya wakurugenzi na wanahisa',
  'requiredDocument.kra_pin_certificate': 'Cheti cha KRA PIN cha biashara',
  'requiredDocument.director_ids': 'Kitambulisho cha taifa au pasipoti ya kila mkurugenzi',
  // The hosted verification page.
  'verify.title.kyc': 'Thibitisha utambulisho wako',
  'verify.title.kyb': 'Thibitisha biashara yako',
  'verify.documentTitle.kyc': '{status}: thibitisha utambulisho wako',
  'verify.documentTitle.kyb': '{status}: thibitisha biashara yako',
  'verify.requestedBy': 'Imeombwa na {app}',
  'verify.requesterFallback': 'programu iliyokuleta hapa',
  'verify.testBadge': 'Kipindi cha majaribio',
  'verify.languageNav': 'Lugha',
  'verify.statusHeading': 'Hali',
  'verify.documentsHeading': 'Hati unazohitaji',
  'verify.documentsHeading.resend': 'Hati za kutuma tena',
  'verify.linkValidUntil': 'Kiungo hiki kinafanya kazi hadi {time}.',
  'verify.reason': 'Sababu:',
  'verify.next.pending': 'Andaa hati zilizoorodheshwa hapa chini. Ukaguzi utaanza baada ya kuziwasilisha.',
  'verify.next.processing': 'Hati zako zinakaguliwa. Ukurasa huu unajisasisha wenyewe hadi matokeo yapatikane.',
  'verify.next.requires_input': 'Baadhi ya hati zinahitaji kutumwa tena.',
  'verify.next.verified': 'Umemaliza. Unaweza kurudi kwenye {app}.',
  'verify.next.rejected': 'Uthibitishaji haukufanikiwa. Wasiliana na {app} ikiwa unadhani kuna kosa.',
  'verify.next.expired': 'Muda wa kiungo hiki umeisha. Omba kiungo kipya kutoka kwa {app}.',
  'verify.next.canceled':
    'Uthibitishaji huu umeghairiwa. Ikiwa bado unahitaji kuthibitisha, omba kiungo kipya kutoka kwa {app}.',
  'verify.resend.directors':
    'Tuma tena kitambulisho cha kila mkurugenzi: faili mpya zinachukua nafasi ya zote za awali.',
  'verify.notice.submitted': 'Hati zimewasilishwa kwa ukaguzi.',
  'verify.notice.approved': 'Uthibitishaji umeidhinishwa.',
  'verify.notice.rejected': 'Uthibitishaji umekataliwa.',
  'verify.notice.resubmission_requested': 'Hati mpya zimeombwa.',
  'verify.notice.moved_on': 'Hali ilibadilika wakati huo, kwa hiyo hakuna kilichofanyika. Hii ndiyo hali ilivyo sasa.',
  'verify.notice.form_expired': 'Muda wa fomu hiyo umeisha, kwa hiyo hakuna kilichofanyika. Tafadhali jaribu tena.',
  'verify.notice.sandbox_off': 'Vidhibiti vya sandbox havipatikani kwa kipindi hiki.',
  'verify.notice.consent_recorded': 'Asante. Idhini yako imerekodiwa.',
  'verify.notice.consent_needed': 'Tafadhali soma ilani na ukubali kwanza. Hakuna kilichofanyika.',
  'verify.notice.upload_failed':
    'Upakiaji haukuweza kusomwa, kwa hiyo hakuna kilichohifadhiwa. Tuma faili zisizozidi 6 kwa wakati mmoja, kila moja isizidi MB 10.',
  'verify.capture.heading': 'Tuma hati zako',
  'verify.capture.intro.kyc':
    'Piga picha kwa kamera ya simu yako au uzichague kwenye faili zako: JPEG, PNG au WebP, angalau pikseli 600 upande mfupi, kila moja isizidi MB 10.',
  'verify.capture.intro.kyb':
    'Chagua picha (JPEG, PNG au WebP, angalau pikseli 600 upande mfupi) au faili za PDF (zisizozidi kurasa 20), kila moja isizidi MB 10.',
  'verify.capture.resend':
    'Tuma tena kile ambacho sababu iliyo hapo juu inaomba (au hati yoyote unayotaka kubadilisha). Hati ulizotuma awali zinabaki isipokuwa uchague faili mpya badala yake.',
  'verify.capture.resendOnly':
    'Tuma hati zilizoorodheshwa hapo juu pekee. Hati zako nyingine zinabaki kama ulivyozituma.',
  'verify.capture.detailsKept': 'Maelezo uliyowasilisha awali yanabaki.',
  'verify.capture.detailsLegend.kyc': 'Kitambulisho chako',
  'verify.capture.detailsLegend.kyb': 'Biashara yako',
  'verify.capture.idType': 'Aina ya kitambulisho',
  'verify.capture.choose': 'Chagua moja',
  'verify.capture.idNumber': 'Nambari ya kitambulisho',
  'verify.capture.registrationNumber': 'Nambari ya usajili (kwa mfano PVT-AB12CD3)',
  'verify.capture.companyName': 'Jina la kampuni',
  'verify.capture.filesLegend': 'Picha na faili',
  'verify.capture.received': 'Imepokelewa: {files}. Chagua faili tu ikiwa unataka kuibadilisha.',
  'verify.capture.send': 'Pakia na uhakiki',
  'verify.capture.errorSummary': 'Kuna tatizo',
  'verify.capture.errorTitle': 'Hitilafu:',
  'verify.capture.fileLabel.id_document_front': 'Upande wa mbele wa kitambulisho (kwa pasipoti, ukurasa wenye picha)',
  'verify.capture.fileLabel.id_document_back': 'Upande wa nyuma wa kitambulisho (hauhitajiki kwa pasipoti)',
  'verify.capture.fileLabel.selfie': 'Selfie: picha ya uso wako iliyo wazi',
  'verify.capture.fileLabel.certificate_of_incorporation': 'Cheti cha usajili wa kampuni',
  'verify.capture.fileLabel.cr12': 'CR12: orodha rasmi ya wakurugenzi na wanahisa',
  'verify.capture.fileLabel.kra_pin_certificate': 'Cheti cha KRA PIN cha biashara',
  'verify.capture.fileLabel.director_id':
    'Kitambulisho cha taifa au pasipoti ya kila mkurugenzi (unaweza kuchagua faili kadhaa)',
  'verify.error.required.file': 'Chagua faili.',
  'verify.error.required.idType': 'Chagua aina ya kitambulisho.',
  'verify.error.required.idNumber': 'Weka nambari ya kitambulisho.',
  'verify.error.invalid.idNumber': 'Hii si nambari sahihi kwa aina hii ya kitambulisho.',
  'verify.error.required.registrationNumber': 'Weka nambari ya usajili.',
  'verify.error.invalid.registrationNumber':
    'Hii si nambari ya Huduma ya Usajili wa Biashara (kama PVT-AB12CD3 au CPR/2015/123456).',
  'verify.error.invalid.companyName': 'Weka jina la kampuni, lisilozidi herufi 200.',
  'verify.error.unsupported_media_type.kyc': 'Aina hii ya faili haikubaliwi: chagua picha ya JPEG, PNG au WebP.',
  'verify.error.unsupported_media_type.kyb':
    'Aina hii ya faili haikubaliwi: chagua PDF, au picha ya JPEG, PNG au WebP.',
  'verify.error.too_large': 'Faili ni kubwa kuliko MB 10.',
  'verify.error.image_too_small': 'Picha ni ndogo mno: lazima iwe angalau pikseli 600 upande wake mfupi.',
  'verify.error.too_many_pages': 'PDF ina kurasa zaidi ya 20.',
  'verify.error.unreadable': 'Faili haikuweza kusomwa; huenda imeharibika. Piga picha au uichague tena.',
  'verify.error.resend': 'Chagua faili mpya: hati hii lazima itumwe tena.',
  'verify.review.heading': 'Hakiki kabla ya kuwasilisha',
  'verify.review.intro': 'Hiki ndicho tulichopokea. Kiwasilishe kwa ukaguzi, au ukibadilishe kwanza.',
  'verify.review.documents': 'Hati zilizopokelewa',
  'verify.review.sentAgain': 'Zilizotumwa tena',
  'verify.review.kept': 'Zilizobaki kutoka awali',
  'verify.review.submit': 'Wasilisha',
  'verify.review.change': 'Badilisha',
  'verify.final.continue': 'Endelea kwenye {app}',
  'verify.sandbox.heading': 'Vidhibiti vya sandbox',
  'verify.sandbox.introTest':
    'Hiki ni kipindi cha majaribio: hakuna kinachokaguliwa. Tumia vidhibiti hivi kuchukua nafasi ya timu ya uthibitishaji.',
  'verify.sandbox.introLive':
    'Vidhibiti vya sandbox vimewashwa kwa vipindi halisi kwenye seva hii: hakuna kinachokaguliwa.',
  'verify.sandbox.finished': 'Kipindi hiki kimekamilika; hakuna kingine cha kufanya.',
  'verify.sandbox.submit': 'Wasilisha',
  'verify.sandbox.approve': 'Idhinisha',
  'verify.sandbox.reject': 'Kataa',
  'verify.sandbox.request_resubmission': 'Omba hati tena',
  'verify.sandbox.rejectReason': 'Sababu ya kukataa (si lazima)',
  'verify.sandbox.resubmissionReason': 'Mtumiaji atume nini tena? (si lazima)',
  'verify.consent.heading': 'Kabla hujaanza: taarifa zako binafsi',
  'verify.consent.intro':
    'Tafadhali soma jinsi taarifa zako binafsi zitakavyotumika. Hakuna kinachokusanywa hadi ukubali.',
  'verify.consent.whoHeading': 'Nani anazikusanya na nani anazichakata',
  'verify.consent.controller':
    '{controller} inakusanya taarifa zako na kuamua jinsi zitakavyotumika (mdhibiti wa data).',
  'verify.consent.processor':
    'Huduma ya uthibitishaji inayoendesha ukurasa huu inazichakata kwa niaba ya {controller} (mchakataji wa data).',
  'verify.consent.subProcessor.kyc':
    'Smile ID (Smile Identity) hukagua hati yako ya utambulisho na picha yako ya uso kwa niaba ya huduma ya uthibitishaji, dhidi ya rekodi za mtoaji wa kitambulisho (mchakataji mdogo wa data).',
  'verify.consent.subProcessor.kyb':
    'Smile ID (Smile Identity) hukagua nambari ya usajili ya kampuni yako kwa niaba ya huduma ya uthibitishaji, dhidi ya sajili ya biashara (mchakataji mdogo wa data).',
  'verify.consent.privacyNotice': 'Soma ilani ya faragha ya {controller}',
  'verify.consent.changed':
    'Ilani hii imebadilika tangu ulipoikubali. Tafadhali isome tena: hakuna kitakachokusanywa zaidi hadi ukubali.',
  'verify.consent.whatHeading': 'Kinachokusanywa',
  'verify.consent.what.kyc':
    'Picha za kitambulisho chako (mbele na nyuma, au pasipoti yako), nambari ya kitambulisho chako na selfie.',
  'verify.consent.what.kyb': 'Maelezo na hati za usajili wa kampuni yako, pamoja na vitambulisho vya wakurugenzi wake.',
  'verify.consent.whyHeading': 'Kwa nini',
  'verify.consent.why.kyc':
    'Ili kuthibitisha utambulisho wako kwa ajili ya {controller}, kuzuia ulaghai na kutimiza wajibu wa kisheria.',
  'verify.consent.why.kyb':
    'Ili kuthibitisha biashara yako kwa ajili ya {controller}, kuzuia ulaghai na kutimiza wajibu wa kisheria.',
  'verify.consent.keepHeading': 'Zinahifadhiwa kwa muda gani',
  'verify.consent.keep': 'Hati zako na maelezo unayowasilisha yatafutwa siku {days} baada ya uthibitishaji kukamilika.',
  'verify.consent.keepOneDay':
    'Hati zako na maelezo unayowasilisha yatafutwa siku moja baada ya uthibitishaji kukamilika.',
  'verify.consent.rightsHeading': 'Haki zako',
  'verify.consent.rights':
    'Kwa mujibu wa Sheria ya Ulinzi wa Data ya mwaka 2019, unaweza kuomba kuona taarifa zako, kuzirekebisha au kuzifuta, na kupinga matumizi yake. Ili kufanya hivyo, wasiliana na {controller}.',
  'verify.consent.complaint': 'Pia unaweza kuwasilisha malalamiko kwa Ofisi ya Kamishna wa Ulinzi wa Data (ODPC).',
  'verify.consent.agreeExplained': 'Ukichagua "Nakubali", taarifa zako zitatumika kama ilivyoelezwa hapo juu.',
  'verify.consent.agree': 'Nakubali',
  'verify.consent.decline': 'Sikubali',
  'verify.declined.title': 'Hukukubali',
  'verify.declined.nothingCollected': 'Hakuna kilichokusanywa, na uthibitishaji huu umeghairiwa.',
  'verify.declined.nothingMoreCollected': 'Hakuna kilichokusanywa zaidi, na uthibitishaji huu umeghairiwa.',
  'verify.declined.otherWay': 'Ili kuthibitisha kwa njia nyingine, au kuanza upya, wasiliana na {app}.',
  'verify.notFound.title': 'Uthibitishaji haukupatikana',
  'verify.notFound.body':
    'Kiungo hiki cha uthibitishaji si sahihi. Hakikisha umefungua kiungo kizima, au omba kiungo kipya kutoka kwa programu iliyokuleta hapa.',
} as const satisfies Partial<Record<keyof typeof en, string>>;
