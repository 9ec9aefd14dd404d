import { Type } from '@sinclair/typebox';
import { sandboxActions } from './page.js';

// The hosted page's inputs. It is not in the OpenAPI document (a page for browsers), so these have no $id.

export const SessionPageParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
export const SessionPageQuery = Type.Object({ notice: Type.Optional(Type.String({ maxLength: 50 })) });
export const SandboxActionBody = Type.Object({
  token: Type.String({ maxLength: 200 }),
  action: Type.Union(sandboxActions.map((action) => Type.Literal(action))),
  reason: Type.Optional(Type.String({ maxLength: 500 })),
});
