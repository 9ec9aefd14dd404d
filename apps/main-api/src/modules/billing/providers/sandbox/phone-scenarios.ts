/**
 * How the sandbox's M-Pesa prompts end, by phone number. Any number not listed pays. The result arrives as a
 * Daraja-shaped callback after SANDBOX_STK_DELAY_MS, except where noted.
 */
export const SANDBOX_PHONE_SCENARIOS = {
  /** Safaricom's own Daraja test number: the customer pays. */
  '254708374149': 'pays',
  /** The customer cancels the prompt: result 1032, the payment is cancelled. */
  '254700000001': 'cancels',
  /** The phone cannot be reached: result 1037, the payment expires. */
  '254700000002': 'times_out',
  /** The customer's balance is too low: result 1, the payment fails. */
  '254700000003': 'insufficient_funds',
  /** The customer pays but the callback is lost: the reconciliation job's status query finds the success. */
  '254700000004': 'callback_lost',
  /** Nothing ever comes back and the query keeps saying "being processed": the payment expires. */
  '254700000005': 'never_answers',
} as const satisfies Record<string, string>;

export type SandboxPhoneScenario = (typeof SANDBOX_PHONE_SCENARIOS)[keyof typeof SANDBOX_PHONE_SCENARIOS];

export function scenarioOfPhone(phone: string): SandboxPhoneScenario {
  return (SANDBOX_PHONE_SCENARIOS as Record<string, SandboxPhoneScenario>)[phone] ?? 'pays';
}

/** The M-Pesa result code and description each scenario ends with; undefined while it never ends. */
export function resultOfScenario(scenario: SandboxPhoneScenario): { code: number; description: string } | undefined {
  switch (scenario) {
    case 'pays':
    case 'callback_lost':
      return { code: 0, description: 'The service request is processed successfully.' };
    case 'cancels':
      return { code: 1032, description: 'Request cancelled by user' };
    case 'times_out':
      return { code: 1037, description: 'DS timeout user cannot be reached' };
    case 'insufficient_funds':
      return { code: 1, description: 'The balance is insufficient for the transaction.' };
    case 'never_answers':
      return undefined;
  }
}
