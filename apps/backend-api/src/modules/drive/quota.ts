import { type MailPlan, mailPlans } from '@platform/db';

/** The plan that sets an organization's folder quota: its mail plan, or none without a current subscription. */
export type FolderQuotaTier = 'none' | MailPlan;

/** Folders allowed per organization and environment, by tier. */
export type FolderQuotas = Readonly<Record<FolderQuotaTier, number>>;

export const DEFAULT_FOLDER_QUOTAS: FolderQuotas = { none: 10, core: 100, growth: 1_000, scale: 10_000 };

const tiersInOrder: readonly FolderQuotaTier[] = ['none', ...mailPlans];
const count = (value: number) => value.toLocaleString('en-US');
const plural = new Intl.PluralRules('en-US');
/** "1 folder", "0 folders", "1,000 folders". */
const folders = (value: number) => `${count(value)} ${plural.select(value) === 'one' ? 'folder' : 'folders'}`;

/**
 * The 403 message at the limit: names the limit and the cheapest tier that allows more, e.g.
 * "Folder limit reached: the core plan allows 100 folders. Upgrade to growth for 1,000."
 */
export function folderQuotaMessage(tier: FolderQuotaTier, quotas: FolderQuotas): string {
  const limit = quotas[tier];
  const current =
    tier === 'none'
      ? `without a mail plan an organization can have ${folders(limit)}`
      : `the ${tier} plan allows ${folders(limit)}`;
  const next = tiersInOrder.slice(tiersInOrder.indexOf(tier) + 1).find((candidate) => quotas[candidate] > limit);
  const advice =
    next === undefined
      ? 'Contact support to raise the limit.'
      : `${tier === 'none' ? 'Subscribe to' : 'Upgrade to'} ${next} for ${count(quotas[next])}.`;
  return `Folder limit reached: ${current}. ${advice}`;
}
