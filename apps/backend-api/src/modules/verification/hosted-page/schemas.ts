import { Type } from '@sinclair/typebox';
import { MAX_SEALED_DRAFT } from './draft.js';
import { consentAnswers, reviewAnswers, sandboxActions } from './page.js';

// The hosted page's inputs. It is not in the OpenAPI document (a page for browsers), so these have no $id.
// `lang` is read loosely: a value that names no language of the page is ignored, never refused.

export const SessionPageParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
export const SessionPageQuery = Type.Object({
  notice: Type.Optional(Type.String({ maxLength: 50 })),
  lang: Type.Optional(Type.String({ maxLength: 20 })),
  step: Type.Optional(Type.String({ maxLength: 20 })),
  /** The capture form's field errors, as fixed codes (capture.ts). */
  errors: Type.Optional(Type.String({ maxLength: 1000 })),
  /** Set by the front-end SDK: its mode, and the origin of the page that opened this one (sdk.ts). */
  sdk: Type.Optional(Type.String({ maxLength: 20 })),
  origin: Type.Optional(Type.String({ maxLength: 300 })),
});
export const PageActionBody = Type.Object({
  token: Type.String({ maxLength: 200 }),
  action: Type.Union([...consentAnswers, ...reviewAnswers, ...sandboxActions].map((action) => Type.Literal(action))),
  reason: Type.Optional(Type.String({ maxLength: 500 })),
  lang: Type.Optional(Type.String({ maxLength: 20 })),
  /** The review step's sealed draft. */
  details: Type.Optional(Type.String({ maxLength: MAX_SEALED_DRAFT })),
  sdk: Type.Optional(Type.String({ maxLength: 20 })),
  origin: Type.Optional(Type.String({ maxLength: 300 })),
});
