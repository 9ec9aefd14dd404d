/**
 * What pdf.js (the reader in Firefox, a second parser here) finds in a PDF that would make it act or that carries a
 * file: its open action, scripts (document, page, field and annotation), attachments, bookmarks and annotations that
 * open something, and media annotations. An empty list: pdf.js sees nothing active.
 */
export async function activeContentSeenByPdfJs(bytes: Buffer): Promise<string[]> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const document = await getDocument({ data: new Uint8Array(bytes), verbosity: 0, isEvalSupported: false }).promise;
  try {
    const found: string[] = [];
    if ((await document.getOpenAction()) !== null) found.push('open action');
    if ((await document.getJSActions()) !== null) found.push('document scripts');
    if ((await document.getAttachments()) !== null) found.push('attachments');
    // pdf.js's types leave out some of what its objects carry (an outline item's action, a field's actions).
    const outline = ((await document.getOutline()) ?? []) as unknown as Array<Record<string, unknown>>;
    if (outline.some((item) => OUTLINE_ACTING.some((key) => isSet(item[key])))) found.push('bookmark actions');
    const fields = ((await document.getFieldObjects()) ?? {}) as Record<string, Array<Record<string, unknown>>>;
    if (Object.values(fields).some((widgets) => widgets.some((widget) => isSet(widget.actions)))) {
      found.push('field actions');
    }
    for (let number = 1; number <= document.numPages; number += 1) {
      const page = await document.getPage(number);
      if ((await page.getJSActions()) !== null) found.push(`page ${number} scripts`);
      for (const annotation of await page.getAnnotations()) {
        const acts = ANNOTATION_ACTING.some((key) => isSet(annotation[key]));
        if (acts || MEDIA.has(annotation.subtype)) found.push(`page ${number} ${annotation.subtype} annotation`);
      }
    }
    return found;
  } finally {
    await document.destroy();
  }
}

const isSet = (value: unknown) => value !== undefined && value !== null;

/** What pdf.js fills in a bookmark, or an annotation, that opens, runs or carries something. */
const OUTLINE_ACTING = ['url', 'unsafeUrl', 'action', 'attachment', 'setOCGState'];
const ANNOTATION_ACTING = [
  'url',
  'unsafeUrl',
  'action',
  'actions',
  'attachment',
  'file',
  'newWindow',
  'resetForm',
  'setOCGState',
];
const MEDIA = new Set(['FileAttachment', 'RichMedia', 'Screen', 'Sound', 'Movie', '3D']);
