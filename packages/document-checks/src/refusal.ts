/**
 * Why a document file is refused. The services answer each with the envelope code and HTTP status in
 * README.md: `unsupported_media_type` 415, `too_large` 413 (`payload_too_large`), the others 400.
 */
export type DocumentFileRefusalReason =
  | 'unsupported_media_type'
  | 'too_large'
  | 'image_too_small'
  | 'too_many_pages'
  | 'unreadable';

const STATUS: Readonly<Record<DocumentFileRefusalReason, number>> = {
  unsupported_media_type: 415,
  too_large: 413,
  image_too_small: 400,
  too_many_pages: 400,
  unreadable: 400,
};

/** A file that is not stored, with a message fit to show the person who sent it. */
export class DocumentFileRefusal extends Error {
  override readonly name = 'DocumentFileRefusal';
  /** The HTTP status the services answer this reason with. */
  readonly status: number;

  constructor(
    readonly reason: DocumentFileRefusalReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.status = STATUS[reason];
  }
}

/** The refusal for a file that is damaged, incomplete or more than one kind of file at once. */
export function unreadable(message: string, cause?: unknown): DocumentFileRefusal {
  return new DocumentFileRefusal('unreadable', message, cause === undefined ? undefined : { cause });
}

export const INCOMPLETE_FILE = 'The file is incomplete or damaged: send it again';
