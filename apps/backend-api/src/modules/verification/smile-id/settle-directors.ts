import { unitOfWorkIn } from '@platform/db';
import { settleDirectors } from '../directors/index.js';
import { concludeSubmission, judgeSubmission } from './conclude.js';
import type { SmileIdContext } from './context.js';

// The job loop's other work (docs/decisions.md#directors): businesses whose directors have all ended get their
// `directors` check, and those Smile ID decides are then concluded by the policy like any submission whose jobs are
// done. A business a reviewer decides keeps the check for the reviewer to read.

export function settleBusinessesOfDirectors(
  ctx: SmileIdContext,
  { batchSize, skip }: { batchSize: number; skip: Set<string> },
): Promise<number> {
  return settleDirectors(
    {
      db: ctx.db,
      vault: ctx.vault,
      now: ctx.now,
      logger: ctx.logger,
      decide: async (tx, parent) => {
        if (parent.decisionSource !== 'smile_id') return;
        const judged = await judgeSubmission(ctx, tx, parent);
        await unitOfWorkIn(tx, (work) => concludeSubmission(ctx, work, parent, judged, ctx.now()));
      },
    },
    { batchSize, skip },
  );
}
