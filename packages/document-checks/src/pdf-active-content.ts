import { PDFArray, PDFDict, PDFName, PDFNumber, type PDFObject, PDFRawStream } from 'pdf-lib';
import { unreadable } from './refusal.js';

/**
 * What a PDF may not carry, and how each is named in the refusal. An identity document or a company's certificate
 * needs none of it: everything here makes a reader act (run a script, open a file or a web page, send a form, play
 * media) or carries a file besides the pages. Names are compared decoded (`/#4aavaScript` is `/JavaScript`;
 * docs/decisions.md#pdfs-without-active-content).
 */
const FEATURES = {
  scripts: { label: 'scripts', names: ['JS', 'JavaScript'] },
  actions: {
    label: 'actions or links (to open a web page or another file, start a program or send a form)',
    // The triggers (on opening; additional actions on a page, a field or an annotation) and the actions that reach
    // outside the document, in any place, key or value.
    names: ['OpenAction', 'AA', 'Launch', 'GoToR', 'GoToE', 'SubmitForm', 'ImportData', 'URI'],
  },
  files: { label: 'attached files', names: ['EmbeddedFile', 'EmbeddedFiles', 'FileAttachment', 'EF'] },
  media: {
    label: 'audio, video or 3D content',
    names: ['RichMedia', 'RichMediaExecute', 'Movie', 'Sound', 'Screen', 'Rendition', '3D'],
  },
  forms: { label: 'an XFA form', names: ['XFA'] },
} as const;

type Feature = keyof typeof FEATURES;

const FEATURE_OF_NAME = new Map<PDFName, Feature>(
  (Object.keys(FEATURES) as Feature[]).flatMap((feature) =>
    FEATURES[feature].names.map((name) => [PDFName.of(name), feature] as const),
  ),
);

/**
 * The action types (the `/S` of an action dictionary, PDF 2.0 section 12.6.4). Any action is refused, one that only
 * moves to a page (`GoTo`, `Named`) included: a plain copy has none, and one rule is easier to trust than a list of
 * harmless ones. Only as the value of `/S` (or with `/Type /Action`): `/S` also names border styles, structure
 * types and transitions.
 */
const ACTION_TYPES = new Set(
  [
    'GoTo',
    'GoToR',
    'GoToE',
    'GoToDp',
    'Launch',
    'Thread',
    'URI',
    'Sound',
    'Movie',
    'Hide',
    'Named',
    'SubmitForm',
    'ResetForm',
    'ImportData',
    'SetOCGState',
    'Rendition',
    'Trans',
    'GoTo3DView',
    'JavaScript',
    'RichMediaExecute',
  ].map((name) => PDFName.of(name)),
);

const S = PDFName.of('S');
const TYPE = PDFName.of('Type');
const ACTION = PDFName.of('Action');
const JAVASCRIPT = PDFName.of('JavaScript');
const N = PDFName.of('N');
const FIRST = PDFName.of('First');

/**
 * Refuses a PDF any of whose objects names a feature above, as a dictionary key or a value, or is an action. Every
 * object the parser read is looked at (keys and values of dictionaries, arrays, stream dictionaries; objects of
 * object streams and objects a later one replaced included, and the trailers' entries), without following
 * references: each referenced object is one of those read.
 *
 * Also refused: a stream laid out as an object stream (`/N` and `/First`) that the parser did not read as one.
 * pdf-lib reads the objects of streams typed `/ObjStm` only, while readers take objects from any stream the
 * cross-reference section sends them to; objects in such a stream would be unseen here.
 */
export function refuseActiveContent(objects: readonly PDFObject[]): void {
  const pending: PDFObject[] = [...objects];
  for (let object = pending.pop(); object !== undefined; object = pending.pop()) {
    if (object instanceof PDFName) {
      const feature = FEATURE_OF_NAME.get(object);
      if (feature !== undefined) throw refusal(feature);
    } else if (object instanceof PDFDict) {
      const action = actionFeature(object);
      if (action !== undefined) throw refusal(action);
      for (const [key, value] of object.entries()) pending.push(key, value);
    } else if (object instanceof PDFArray) {
      pending.push(...object.asArray());
    } else if (object instanceof PDFRawStream) {
      if (object.dict.get(N) instanceof PDFNumber && object.dict.get(FIRST) instanceof PDFNumber) {
        throw unreadable(HIDDEN_OBJECTS);
      }
      pending.push(object.dict);
    }
  }
}

/** What an action dictionary does, named as in the refusal; undefined for a dictionary that is no action. */
function actionFeature(dict: PDFDict): Feature | undefined {
  const type = dict.get(S);
  if (type === JAVASCRIPT) return 'scripts';
  return (type instanceof PDFName && ACTION_TYPES.has(type)) || dict.get(TYPE) === ACTION ? 'actions' : undefined;
}

function refusal(feature: Feature) {
  return unreadable(
    `The PDF contains ${FEATURES[feature].label}, which a document sent for verification may not: send a plain copy (print it to PDF, or scan the paper)`,
  );
}

export const HIDDEN_OBJECTS =
  'The PDF has objects hidden where only some readers find them: send a plain copy (print it to PDF, or scan the paper)';
