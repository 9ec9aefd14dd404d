/** The return URL with the payment's reference added (`reference` and `trxref`, as Paystack's checkout adds them). */
export function returnUrlFor(returnUrl: string, reference: string): string {
  const url = new URL(returnUrl);
  url.searchParams.set('trxref', reference);
  url.searchParams.set('reference', reference);
  return url.toString();
}
