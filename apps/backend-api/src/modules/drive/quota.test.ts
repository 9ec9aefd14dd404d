import { describe, expect, it } from 'vitest';
import { DEFAULT_FOLDER_QUOTAS, folderQuotaMessage } from './quota.js';

describe('folderQuotaMessage', () => {
  it.each([
    [
      'none',
      'Folder limit reached: without a mail plan an organization can have 10 folders. Subscribe to core for 100.',
    ],
    ['core', 'Folder limit reached: the core plan allows 100 folders. Upgrade to growth for 1,000.'],
    ['growth', 'Folder limit reached: the growth plan allows 1,000 folders. Upgrade to scale for 10,000.'],
    ['scale', 'Folder limit reached: the scale plan allows 10,000 folders. Contact support to raise the limit.'],
  ] as const)('names the limit of %s and what to do', (tier, message) => {
    expect(folderQuotaMessage(tier, DEFAULT_FOLDER_QUOTAS)).toBe(message);
  });

  it.each([
    [
      { none: 1, core: 2, growth: 3, scale: 4 },
      'none',
      'without a mail plan an organization can have 1 folder. Subscribe to core for 2.',
    ],
    [
      { none: 0, core: 1, growth: 3, scale: 4 },
      'none',
      'without a mail plan an organization can have 0 folders. Subscribe to core for 1.',
    ],
    [{ none: 0, core: 1, growth: 3, scale: 4 }, 'core', 'the core plan allows 1 folder. Upgrade to growth for 3.'],
    [
      { none: 0, core: 1, growth: 1, scale: 1 },
      'scale',
      'the scale plan allows 1 folder. Contact support to raise the limit.',
    ],
  ] as const)('says "folder" for a limit of one and "folders" otherwise (%o, %s)', (quotas, tier, message) => {
    expect(folderQuotaMessage(tier, quotas)).toBe(`Folder limit reached: ${message}`);
  });

  it('skips a tier that would not allow more folders', () => {
    const quotas = { none: 10, core: 100, growth: 100, scale: 500 };
    expect(folderQuotaMessage('core', quotas)).toBe(
      'Folder limit reached: the core plan allows 100 folders. Upgrade to scale for 500.',
    );
    expect(folderQuotaMessage('scale', { ...quotas, scale: 100 })).toContain('Contact support');
  });
});
