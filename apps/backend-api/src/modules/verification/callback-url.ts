import { invalidFields } from '@platform/errors';
import { validateCallbackUrl } from '@platform/webhooks';

/**
 * The session fields that hold a URL: where its events are sent, where the hosted page sends the person back, and
 * the customer's privacy notice the consent notice links to.
 */
type SessionUrlField = 'callbackUrl' | 'returnUrl' | 'privacyNoticeUrl';

/**
 * Checks a URL a session is created with (`callbackUrl`, `returnUrl`, `privacyNoticeUrl`), with the same rules the delivery worker
 * applies to callbacks: an absolute https URL without credentials and not a literal private address or localhost
 * (http and private targets only when `allowPrivateTargets`, for local runs and tests). What a host name resolves
 * to is checked when each event is delivered, since DNS can change in between. Returns the URL as given; a 400
 * naming the field otherwise.
 */
export function checkSessionUrl(
  field: SessionUrlField,
  value: string,
  { allowPrivateTargets }: { allowPrivateTargets: boolean },
): string {
  const check = validateCallbackUrl(value, { allowPrivateTargets });
  if (!check.ok) throw invalidFields([{ path: `/${field}`, message: check.reason }]);
  return value;
}
