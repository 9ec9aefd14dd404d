import type { dashboardDevelopersEn } from './dashboard-developers.en.js';

// The Developers pages of the dashboard in Kiswahili, joined into the Kiswahili catalog (sw.ts): every key of
// dashboard-developers.en.ts. A reason the API gives (in English) is quoted inside a sentence of the page's language.

export const dashboardDevelopersSw = {
  'dashboard.developers.subnav': 'Mipangilio ya wasanidi',
  'dashboard.developers.readOnly':
    'Unaweza kuona mipangilio hii; wamiliki, wasimamizi na wasanidi ndio wanaoibadilisha.',
  'dashboard.developers.keys.title': 'Funguo za API',
  'dashboard.developers.keys.intro.test':
    'Seva zako huita API kwa funguo hizi. Funguo za majaribio za {organization}: huunda vipindi vya majaribio pekee.',
  'dashboard.developers.keys.intro.live':
    'Seva zako huita API kwa funguo hizi. Funguo halisi za {organization}: vipindi vyake ni halisi na hulipiwa.',
  'dashboard.developers.keys.caption': 'Funguo za API',
  'dashboard.developers.keys.name': 'Jina',
  'dashboard.developers.keys.key': 'Ufunguo',
  'dashboard.developers.keys.environment': 'Mazingira',
  'dashboard.developers.keys.created': 'Uliundwa',
  'dashboard.developers.keys.lastUsed': 'Ulitumika mwisho',
  'dashboard.developers.keys.never': 'Bado haujatumika',
  'dashboard.developers.keys.rateLimit': 'Kikomo cha maombi',
  'dashboard.developers.keys.perMinute': '{count} kwa dakika',
  'dashboard.developers.keys.defaultLimit': 'Kiwango cha kawaida',
  'dashboard.developers.keys.status': 'Hali',
  'dashboard.developers.keys.active': 'Unatumika',
  'dashboard.developers.keys.revokedOn': 'Ulibatilishwa {at}',
  'dashboard.developers.keys.actions': 'Vitendo',
  'dashboard.developers.keys.revoke': 'Batilisha',
  'dashboard.developers.keys.revokeLabel': 'Batilisha ufunguo {name}',
  'dashboard.developers.keys.revoked': 'Ufunguo umebatilishwa: umeacha kufanya kazi mara moja.',
  'dashboard.developers.keys.empty': 'Bado hakuna ufunguo.',
  'dashboard.developers.keys.create.test': 'Unda ufunguo wa majaribio',
  'dashboard.developers.keys.create.live': 'Unda ufunguo halisi',
  'dashboard.developers.keys.nameHint': 'Ili ujue unapotumika, kama "Seva ya uzalishaji".',
  'dashboard.developers.keys.rateLimitField': 'Maombi kwa dakika (si lazima)',
  'dashboard.developers.keys.rateLimitHint': 'Yasizidi {max} kwa dakika kwa shirika hili. Tupu: kiwango cha kawaida.',
  'dashboard.developers.keys.badRateLimit':
    'Maombi kwa dakika hayakukubaliwa: weka namba kamili kuanzia 1 hadi {max}, au acha tupu kwa kiwango cha kawaida.',
  'dashboard.developers.keys.readVerifiedData': 'Inaweza kusoma data binafsi iliyothibitishwa',
  'dashboard.developers.keys.readVerifiedDataHint':
    'Majina, nambari za vitambulisho na tarehe za kuzaliwa za vipindi vilivyothibitishwa (expand=verified_outputs). Kila usomaji umo kwenye kumbukumbu ya ukaguzi.',
  'dashboard.developers.keys.verifiedDataForbidden':
    'Ni wamiliki na wasimamizi pekee wanaoweza kuipa funguo data binafsi iliyothibitishwa.',
  'dashboard.developers.keys.submit': 'Unda ufunguo',
  'dashboard.developers.keys.badName': 'Jina halikukubaliwa (sababu: {reason}).',
  'dashboard.developers.keys.secretHeading': 'Ufunguo wako mpya "{name}"',
  'dashboard.developers.keys.secretHint':
    'Nakili siri hii sasa na uiweke kwenye seva yako: inaonyeshwa mara hii moja tu, nasi tunahifadhi alama yake pekee.',
  'dashboard.developers.keys.secretLabel': 'Ufunguo wa siri',
  'dashboard.developers.keys.locked':
    'Funguo halisi zimefungwa hadi shirika lako liamilishwe: kwanza mmiliki wake athibitishe biashara. Funguo za majaribio zinafanya kazi sasa.',
  'dashboard.developers.keys.activate': 'Amilisha shirika',
  'dashboard.developers.webhooks.title': 'Anwani ya webhook',
  'dashboard.developers.webhooks.intro.test':
    'Matukio ya vipindi vyako vya majaribio hutumwa, yakiwa yametiwa sahihi, kwa URL hii, isipokuwa kipindi kikitaja callbackUrl yake.',
  'dashboard.developers.webhooks.intro.live':
    'Matukio ya vipindi vyako halisi hutumwa, yakiwa yametiwa sahihi, kwa URL hii, isipokuwa kipindi kikitaja callbackUrl yake.',
  'dashboard.developers.webhooks.current': 'Matukio hutumwa kwa {url}',
  'dashboard.developers.webhooks.none': 'Hakuna URL iliyowekwa: matukio ya vipindi visivyo na callbackUrl hayatumwi.',
  'dashboard.developers.webhooks.url': 'URL ya anwani',
  'dashboard.developers.webhooks.urlHint': 'URL ya https ya seva yako, kama https://example.com/webhooks.',
  'dashboard.developers.webhooks.save': 'Hifadhi URL',
  'dashboard.developers.webhooks.saved': 'URL imehifadhiwa: matukio yajayo yanaenda huko.',
  'dashboard.developers.webhooks.clear': 'Ondoa URL',
  'dashboard.developers.webhooks.clearHint':
    'Matukio ya vipindi vilivyoundwa bila callbackUrl hayatatumwa popote; kipindi chenye callbackUrl yake bado kinapata matukio yake.',
  'dashboard.developers.webhooks.cleared': 'URL imeondolewa: matukio ya vipindi visivyo na callbackUrl hayatumwi.',
  'dashboard.developers.webhooks.noUrl': 'Andika URL ya kutuma matukio.',
  'dashboard.developers.webhooks.badUrl': 'URL haikukubaliwa (sababu: {reason}).',
  'dashboard.developers.webhooks.disabled': 'URL zilizojibu 410 Gone hazipati matukio tena. Ihifadhi tena ili uiwashe.',
  'dashboard.developers.webhooks.disabledOn': '{url}: ilizimwa {at}',
  'dashboard.developers.webhooks.testHeading': 'Tukio la majaribio',
  'dashboard.developers.webhooks.testHint':
    'Hutuma tukio la webhook.test kwa URL: lenye sahihi, hujaribiwa tena na kurekodiwa kama kila tukio.',
  'dashboard.developers.webhooks.test': 'Tuma tukio la majaribio',
  'dashboard.developers.webhooks.secretHeading': 'Siri ya sahihi',
  'dashboard.developers.webhooks.secretNotShown':
    'Hakiki sahihi ya kila tukio kwa siri hii. Bado haijaonyeshwa, na inaonyeshwa mara moja tu.',
  'dashboard.developers.webhooks.secretShownOn':
    'Siri ya sahihi ilionyeshwa {at}. Haionyeshwi tena: ibadilishe upate mpya.',
  'dashboard.developers.webhooks.rotating': 'Siri iliyotangulia pia hutia sahihi matukio hadi {at}.',
  'dashboard.developers.webhooks.reveal': 'Onyesha siri ya sahihi',
  'dashboard.developers.webhooks.rotate': 'Badilisha siri ya sahihi',
  'dashboard.developers.webhooks.rotateHint':
    'Siri mpya, inayoonyeshwa mara moja. Kwa saa 24 matukio hubeba sahihi zote mbili, ili seva yako ibadilishe bila kukosa tukio.',
  'dashboard.developers.webhooks.secretTitle': 'Siri yako ya sahihi',
  'dashboard.developers.webhooks.secretCopy':
    'Nakili siri hii ya sahihi sasa na uiweke kwenye seva yako: inaonyeshwa mara hii moja tu.',
  'dashboard.developers.webhooks.secretLabel': 'Siri ya sahihi',
  'dashboard.developers.webhooks.alreadyShown':
    'Siri ya sahihi ilishaonyeshwa na haionyeshwi tena: ibadilishe upate mpya.',
  'dashboard.developers.webhooks.testNeedsUrl': 'Weka URL kwanza: tukio la majaribio huenda huko.',
  'dashboard.developers.events.title': 'Kumbukumbu ya utumaji',
  'dashboard.developers.events.intro.test':
    'Kila tukio la majaribio lililotumwa kwa anwani zako, jipya kwanza, pamoja na majaribio yake.',
  'dashboard.developers.events.intro.live':
    'Kila tukio halisi lililotumwa kwa anwani zako, jipya kwanza, pamoja na majaribio yake.',
  'dashboard.developers.events.filters': 'Chuja matukio',
  'dashboard.developers.events.type': 'Aina ya tukio',
  'dashboard.developers.events.typeHint': 'Kamili, kama webhook.test.',
  'dashboard.developers.events.outcome': 'Matokeo',
  'dashboard.developers.events.any': 'Yoyote',
  'dashboard.developers.events.apply': 'Onyesha matukio',
  'dashboard.developers.events.clear': 'Futa vichujio',
  'dashboard.developers.events.caption': 'Matukio na jaribio lao la mwisho',
  'dashboard.developers.events.created': 'Wakati',
  'dashboard.developers.events.tries': 'Majaribio',
  'dashboard.developers.events.lastTry': 'Jaribio la mwisho',
  'dashboard.developers.events.excerpt': 'Jibu',
  'dashboard.developers.events.empty':
    'Hakuna tukio linalolingana. Matukio ya vipindi vyako na matukio ya majaribio huonekana hapa.',
  'dashboard.developers.events.next': 'Ukurasa unaofuata',
  'dashboard.developers.events.first': 'Ukurasa wa kwanza',
  'dashboard.developers.events.notTried': 'Bado halijajaribiwa',
  'dashboard.developers.events.answer': 'HTTP {status}, ms {ms}',
  'dashboard.developers.events.noAnswer': 'Hakuna jibu, ms {ms}',
  'dashboard.developers.outcome.pending': 'Linasubiri jaribio la kwanza',
  'dashboard.developers.outcome.retrying': 'Limeshindwa, linajaribiwa tena',
  'dashboard.developers.outcome.delivered': 'Limefika',
  'dashboard.developers.outcome.failed': 'Limeshindwa kabisa',
  'dashboard.developers.event.title': 'Tukio la webhook',
  'dashboard.developers.event.back': 'Kumbukumbu ya utumaji',
  'dashboard.developers.event.id': 'Kitambulisho cha tukio (webhook-id)',
  'dashboard.developers.event.deliveries': 'Utumaji',
  'dashboard.developers.event.deliveredAt': 'Lilifika',
  'dashboard.developers.event.nextTry': 'Jaribio lijalo',
  'dashboard.developers.event.lastError': 'Kwa nini halijafika',
  'dashboard.developers.event.attempts': 'Majaribio',
  'dashboard.developers.event.attemptsCaption': 'Kila jaribio la kila utumaji, la zamani kwanza',
  'dashboard.developers.event.noAttempts': 'Bado halijajaribiwa: jaribio la kwanza hufanywa ndani ya dakika moja.',
  'dashboard.developers.event.tryHeading': 'Utumaji {delivery}, jaribio {attempt}',
  'dashboard.developers.event.url': 'Anwani (URL)',
  'dashboard.developers.event.statusCode': 'Msimbo wa hali',
  'dashboard.developers.event.latency': 'Muda wa kujibu',
  'dashboard.developers.event.ms': 'ms {ms}',
  'dashboard.developers.event.none': 'Hakuna',
  'dashboard.developers.event.body': 'Maudhui yaliyotumwa',
  'dashboard.developers.event.redeliver': 'Tuma tena',
  'dashboard.developers.event.redeliverHint':
    'Hutuma tukio tena sasa, kwa webhook-id na maudhui yale yale, kwa linakokwenda sasa.',
  'dashboard.developers.event.redelivered':
    'Utumaji upya umepangwa: tukio linatumwa tena sasa, kwa webhook-id ile ile.',
  'dashboard.developers.event.alreadyScheduled': 'Tukio tayari linatumwa; hakuna utumaji wa pili ulioongezwa.',
  'dashboard.developers.event.testSent': 'Tukio la majaribio limetumwa: majaribio yake yanaonekana hapa.',
  'dashboard.developers.origins.title': 'Asili zinazoruhusiwa',
  'dashboard.developers.origins.intro.test':
    'Kurasa za wavuti kwenye asili hizi zinaweza kufungua kurasa zako za uthibitishaji wa majaribio kupitia SDK, ndani ya fremu au kama dirisha ibukizi.',
  'dashboard.developers.origins.intro.live':
    'Kurasa za wavuti kwenye asili hizi zinaweza kufungua kurasa zako halisi za uthibitishaji kupitia SDK, ndani ya fremu au kama dirisha ibukizi.',
  'dashboard.developers.origins.listLabel': 'Asili zinazoruhusiwa',
  'dashboard.developers.origins.empty':
    'Bado hakuna asili: ukurasa wa uthibitishaji hauwezi kuwekwa kwenye fremu wala kutuma matukio.',
  'dashboard.developers.origins.remove': 'Ondoa',
  'dashboard.developers.origins.removeLabel': 'Ondoa {origin}',
  'dashboard.developers.origins.removed': 'Asili imeondolewa.',
  'dashboard.developers.origins.added': 'Asili imeongezwa.',
  'dashboard.developers.origins.origin': 'Asili',
  'dashboard.developers.origins.originHint':
    'Kama https://shop.example au https://shop.example:8443: bila njia; http:// kwa localhost pekee. Zisizozidi {max}.',
  'dashboard.developers.origins.add': 'Ongeza asili',
  'dashboard.developers.origins.noOrigin': 'Andika asili, kama https://shop.example.',
  'dashboard.developers.origins.badOrigin': 'Asili haikukubaliwa (sababu: {reason}).',
  'dashboard.developers.origins.full': 'Orodha tayari ina asili {max}: ondoa moja kwanza.',
  'dashboard.developers.origins.notListed': 'Asili hiyo haimo kwenye orodha.',
} as const satisfies Record<keyof typeof dashboardDevelopersEn, string>;
