import Negotiator from 'negotiator';

/**
 * Which of the `offered` media types (the route's default first) the request's Accept header prefers, by its
 * q-values. No header, `*\/*`, or a header naming none of them gives the default: an answer in the route's usual
 * form is more use to a client than a 406.
 */
export function preferredMediaType<T extends string>(accept: string | undefined, offered: readonly [T, ...T[]]): T {
  const chosen = new Negotiator({ headers: accept === undefined ? {} : { accept } }).mediaType(offered);
  return (offered.find((type) => type === chosen) ?? offered[0]) as T;
}
