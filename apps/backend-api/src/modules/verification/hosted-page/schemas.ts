import { Type } from '@sinclair/typebox';
import { consentAnswers, sandboxActions } from './page.js';

// The hosted page's inputs. It is not in the OpenAPI document (a page for browsers), so these have no $id.
// `lang` is read loosely: a value that names no language of the page is ignored, never refused.

export const SessionPageParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
export const SessionPageQuery = Type.Object({
  notice: Type.Optional(Type.String({ maxLength: 50 })),
  lang: Type.Optional(Type.String({ maxLength: 20 })),
  step: Type.Optional(Type.String({ maxLength: 20 })),
});
export const PageActionBody = Type.Object({
  token: Type.String({ maxLength: 200 }),
  action: Type.Union([...consentAnswers, ...sandboxActions].map((action) => Type.Literal(action))),
  reason: Type.Optional(Type.String({ maxLength: 500 })),
  lang: Type.Optional(Type.String({ maxLength: 20 })),
});
