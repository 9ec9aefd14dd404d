import {
  type ApiKeyEnvironment,
  apiKeyEnvironments,
  type DecisionSourceKind,
  decisionSourceKinds,
  type Transaction,
  type VerificationSession,
  type VerificationType,
  verificationTypes,
} from '@platform/db';

/**
 * The port that decides a submitted session (docs/decisions.md#decision-sources). `sandbox`: the hosted page's
 * buttons; `manual`: a reviewer of the platform's staff; `smile_id`: Smile ID's automated checks, which start from
 * the submission (`SubmissionListener`, docs/decisions.md#automated-decisions).
 */
export interface DecisionSource {
  readonly kind: DecisionSourceKind;
}

/**
 * What an automated decision source does with a submission. The capture by API and the hosted page call it for
 * every session they submit; a source leaves alone the sessions it does not decide.
 */
export interface SubmissionListener {
  /** In the submission's transaction, after the move to processing: records the work to do once it commits. */
  submitted(tx: Transaction, session: VerificationSession, now: Date): Promise<void>;
  /** After a submission committed: starts that work now rather than at the next tick; never throws or waits. */
  committed(): void;
}

/** For sessions no automated source decides (and tests of other modules). */
export const noSubmissionListener: SubmissionListener = {
  submitted: async () => undefined,
  committed: () => undefined,
};

/** Which decision source each environment and verification type uses. */
export type DecisionTable = Readonly<Record<ApiKeyEnvironment, Readonly<Record<VerificationType, DecisionSourceKind>>>>;

/** What the configuration gives the decision sources. */
export interface DecisionSettings {
  decisions: DecisionTable;
  /** HOSTED_PAGE_LIVE_SANDBOX: sandbox decisions on live sessions are allowed (local use only, never production). */
  liveSandbox: boolean;
}

/** Without VERIFICATION_DECISIONS: the sandbox for test sessions, a reviewer for live ones. */
const DEFAULT_DECISIONS: DecisionTable = {
  test: { kyc: 'sandbox', kyb: 'sandbox' },
  live: { kyc: 'manual', kyb: 'manual' },
};

export type ParsedDecisions = { ok: true; decisions: DecisionTable } | { ok: false; reason: string };

/** Whether any environment and type is decided by `kind` (config.ts asks for smile_id's credentials then). */
export function usesDecisionSource(decisions: DecisionTable, kind: DecisionSourceKind): boolean {
  return apiKeyEnvironments.some((environment) =>
    verificationTypes.some((type) => decisions[environment][type] === kind),
  );
}

const ANY_TYPE = '*';

/**
 * Reads VERIFICATION_DECISIONS: comma-separated rules `<environment>:<type>=<source>`, where the environment is
 * `live` or `test`, the type `kyc`, `kyb` or `*` (both), and the source `sandbox`, `manual` or `smile_id`; spaces around the
 * parts are ignored. Rules change the defaults (test sandbox, live manual) for what they name; a rule for one
 * type beats the `*` rule of its environment whatever their order, and naming the same environment and type
 * twice is refused. A live rule with `sandbox` is refused unless `liveSandbox` (HOSTED_PAGE_LIVE_SANDBOX) allows
 * it. Unset or empty: the defaults.
 */
export function parseDecisionRules(
  text: string | undefined,
  { liveSandbox }: { liveSandbox: boolean },
): ParsedDecisions {
  const table = { test: { ...DEFAULT_DECISIONS.test }, live: { ...DEFAULT_DECISIONS.live } };
  const rules = (text ?? '')
    .split(',')
    .map((rule) => rule.trim())
    .filter((rule) => rule !== '');
  const seen = new Set<string>();
  const specific: Array<{ environment: ApiKeyEnvironment; type: VerificationType; source: DecisionSourceKind }> = [];
  for (const rule of rules) {
    const match = /^([^:=\s]+)\s*:\s*([^:=\s]+)\s*=\s*([^:=\s]+)$/.exec(rule);
    if (match === null) return refused(`"${rule}" is not <environment>:<type>=<source>`);
    const [, environment = '', type = '', source = ''] = match;
    if (!isOneOf(environment, apiKeyEnvironments)) {
      return refused(`"${rule}": the environment must be ${apiKeyEnvironments.join(' or ')}`);
    }
    if (type !== ANY_TYPE && !isOneOf(type, verificationTypes)) {
      return refused(`"${rule}": the type must be ${verificationTypes.join(', ')} or ${ANY_TYPE}`);
    }
    if (!isOneOf(source, decisionSourceKinds)) {
      return refused(`"${rule}": the source must be ${oneOf(decisionSourceKinds)}`);
    }
    const key = `${environment}:${type}`;
    if (seen.has(key)) return refused(`${key} is named twice`);
    seen.add(key);
    if (environment === 'live' && source === 'sandbox' && !liveSandbox) {
      return refused(
        `"${rule}" needs HOSTED_PAGE_LIVE_SANDBOX=true: sandbox decisions on live sessions are for local use only, ` +
          'never production',
      );
    }
    if (type === ANY_TYPE) {
      for (const each of verificationTypes) table[environment][each] = source;
    } else {
      specific.push({ environment, type, source });
    }
  }
  for (const { environment, type, source } of specific) table[environment][type] = source;
  return { ok: true, decisions: table };
}

/** The decision source of a new session of `type` in `environment`, as the configuration chooses it. */
export function decisionSourceFor(
  settings: Pick<DecisionSettings, 'decisions'>,
  environment: ApiKeyEnvironment,
  type: VerificationType,
): DecisionSource {
  return { kind: settings.decisions[environment][type] };
}

/**
 * Whether the hosted page offers the sandbox buttons for this session: exactly when its decision source is the
 * sandbox, and for a live session only while HOSTED_PAGE_LIVE_SANDBOX still allows it, so a live session made
 * under a local configuration can never be decided by a button where that setting is off.
 */
export function decidedByHostedPageButtons(
  session: Pick<VerificationSession, 'decisionSource' | 'environment'>,
  settings: Pick<DecisionSettings, 'liveSandbox'>,
): boolean {
  return session.decisionSource === 'sandbox' && (session.environment === 'test' || settings.liveSandbox);
}

/** `a, b or c`. */
function oneOf(values: readonly string[]): string {
  return values.length < 2 ? values.join('') : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
}

function refused(reason: string): ParsedDecisions {
  return { ok: false, reason };
}

function isOneOf<T extends string>(value: string, values: readonly T[]): value is T {
  return (values as readonly string[]).includes(value);
}
