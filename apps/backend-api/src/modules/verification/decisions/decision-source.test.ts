import { describe, expect, it } from 'vitest';
import {
  decidedByHostedPageButtons,
  decisionSourceFor,
  parseDecisionRules,
  usesDecisionSource,
} from './decision-source.js';

const local = { liveSandbox: true };
const production = { liveSandbox: false };

function decisionsOf(text: string | undefined, options = production) {
  const parsed = parseDecisionRules(text, options);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.decisions;
}

function reasonOf(text: string, options = production): string {
  const parsed = parseDecisionRules(text, options);
  if (parsed.ok) throw new Error(`"${text}" was accepted`);
  return parsed.reason;
}

describe('parseDecisionRules (VERIFICATION_DECISIONS)', () => {
  it.each([undefined, '', ' , '])('gives the sandbox to test sessions and a reviewer to live ones for %j', (text) => {
    expect(decisionsOf(text)).toEqual({
      test: { kyc: 'sandbox', kyb: 'sandbox' },
      live: { kyc: 'manual', kyb: 'manual' },
    });
  });

  it('reads the defaults written out, with spaces around the parts', () => {
    expect(decisionsOf(' test : * = sandbox , live:*=manual ')).toEqual(decisionsOf(undefined));
  });

  it('changes only what a rule names', () => {
    expect(decisionsOf('test:kyb=manual')).toEqual({
      test: { kyc: 'sandbox', kyb: 'manual' },
      live: { kyc: 'manual', kyb: 'manual' },
    });
  });

  it('lets a rule for one type beat the * rule of its environment, in either order', () => {
    const expected = { kyc: 'sandbox', kyb: 'manual' };
    expect(decisionsOf('test:kyb=manual,test:*=sandbox').test).toEqual(expected);
    expect(decisionsOf('test:*=sandbox,test:kyb=manual').test).toEqual(expected);
    expect(decisionsOf('test:*=manual,test:kyc=sandbox').test).toEqual({ kyc: 'sandbox', kyb: 'manual' });
  });

  it('refuses sandbox decisions on live sessions unless HOSTED_PAGE_LIVE_SANDBOX allows them', () => {
    for (const rule of ['live:*=sandbox', 'live:kyc=sandbox', 'test:*=sandbox,live:kyb=sandbox']) {
      expect(reasonOf(rule)).toMatch(/needs HOSTED_PAGE_LIVE_SANDBOX=true: .*never production/);
    }
    expect(decisionsOf('live:*=sandbox', local).live).toEqual({ kyc: 'sandbox', kyb: 'sandbox' });
    expect(decisionsOf('live:kyb=sandbox', local).live).toEqual({ kyc: 'manual', kyb: 'sandbox' });
  });

  it('lets Smile ID decide live kyc while a reviewer decides kyb', () => {
    expect(decisionsOf('live:kyc=smile_id,live:kyb=manual')).toEqual({
      test: { kyc: 'sandbox', kyb: 'sandbox' },
      live: { kyc: 'smile_id', kyb: 'manual' },
    });
    const decisions = decisionsOf('live:kyc=smile_id');
    expect(usesDecisionSource(decisions, 'smile_id')).toBe(true);
    expect(usesDecisionSource(decisionsOf(undefined), 'smile_id')).toBe(false);
  });

  it('keeps live sessions manual by default even where live sandbox is allowed', () => {
    expect(decisionsOf(undefined, local).live).toEqual({ kyc: 'manual', kyb: 'manual' });
  });

  it.each([
    ['live', 'is not <environment>:<type>=<source>'],
    ['live:kyc', 'is not <environment>:<type>=<source>'],
    ['live=manual', 'is not <environment>:<type>=<source>'],
    ['live:kyc=manual=sandbox', 'is not <environment>:<type>=<source>'],
    ['live:kyc:x=manual', 'is not <environment>:<type>=<source>'],
    ['staging:*=manual', 'the environment must be live or test'],
    ['*:*=manual', 'the environment must be live or test'],
    ['LIVE:kyc=manual', 'the environment must be live or test'],
    ['live:aml=manual', 'the type must be kyc, kyb or *'],
    ['live:kyc=provider', 'the source must be sandbox, manual or smile_id'],
    ['live:kyc=manual,live:kyc=manual', 'live:kyc is named twice'],
    ['test:*=sandbox,test:*=manual', 'test:* is named twice'],
  ])('refuses %j', (text, reason) => {
    expect(reasonOf(text, local)).toContain(reason);
  });
});

describe('decisionSourceFor', () => {
  it('answers the source the configuration gives an environment and type', () => {
    const settings = { decisions: decisionsOf('test:kyb=manual') };
    expect(decisionSourceFor(settings, 'test', 'kyc')).toEqual({ kind: 'sandbox' });
    expect(decisionSourceFor(settings, 'test', 'kyb')).toEqual({ kind: 'manual' });
    expect(decisionSourceFor(settings, 'live', 'kyc')).toEqual({ kind: 'manual' });
    expect(decisionSourceFor(settings, 'live', 'kyb')).toEqual({ kind: 'manual' });
  });
});

describe('decidedByHostedPageButtons', () => {
  it.each([
    ['a test session the sandbox decides', { environment: 'test', decisionSource: 'sandbox' }, production, true],
    ['a test session a reviewer decides', { environment: 'test', decisionSource: 'manual' }, local, false],
    ['a live session a reviewer decides', { environment: 'live', decisionSource: 'manual' }, local, false],
    [
      'a live sandbox session where live sandbox is allowed',
      { environment: 'live', decisionSource: 'sandbox' },
      local,
      true,
    ],
    [
      'a live sandbox session once live sandbox is no longer allowed',
      { environment: 'live', decisionSource: 'sandbox' },
      production,
      false,
    ],
  ] as const)('%s: %s', (_label, session, settings, expected) => {
    expect(decidedByHostedPageButtons(session, settings)).toBe(expected);
  });
});
