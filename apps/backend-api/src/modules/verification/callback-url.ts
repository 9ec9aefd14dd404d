import { validationError } from '@platform/errors';
import { validateCallbackUrl } from '@platform/webhooks';

const PATH = '/callbackUrl';

/**
 * Checks a session's callbackUrl when it is created, with the same rules the delivery worker applies: an
 * absolute https URL without credentials and not a literal private address or localhost (http and private
 * targets only when `allowPrivateTargets`, for local runs and tests). What a host name resolves to is checked
 * when each event is delivered, since DNS can change in between. Returns the URL as given.
 */
export function checkCallbackUrl(value: string, { allowPrivateTargets }: { allowPrivateTargets: boolean }): string {
  const check = validateCallbackUrl(value, { allowPrivateTargets });
  if (!check.ok) throw validationError(`body${PATH} ${check.reason}`, [{ path: PATH, message: check.reason }]);
  return value;
}
