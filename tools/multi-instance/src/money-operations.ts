import fc from 'fast-check';

// The operations of the money-invariants run (money-invariants.test.ts) and the arbitrary that draws them.

export const ORGANIZATIONS = 3;

export type On = 0 | 1;
export type Operation =
  | { kind: 'checkout'; org: number; instance: On; amount: number; confirmations: 1 | 2 | 3 }
  | { kind: 'paystack_checkout'; org: number; instance: On; amount: number; deliveries: 2 | 3 }
  | { kind: 'paystack_charge'; org: number; instance: On; amount: number; duplicate: boolean; deliveries: 2 | 3 }
  | { kind: 'mpesa'; org: number; instance: On; amount: number; result: 0 | 1032; deliveries: 2 | 3 }
  | { kind: 'verify'; org: number; instance: On; pick: number; outcome: 'approve' | 'reject'; twice: boolean }
  | { kind: 'top_up'; org: number; instance: On; amount: number; duplicate: boolean }
  | { kind: 'create_session'; org: number; instance: On; type: 'kyc' | 'kyb'; duplicate: boolean }
  | { kind: 'cancel_session'; org: number; instance: On; pick: number; twice: boolean }
  | {
      kind: 'change_plan';
      org: number;
      instance: On;
      plan: 'core' | 'growth' | 'scale';
      seats: number;
      duplicate: boolean;
    };

const instance = fc.constantFrom<On>(0, 1);
const org = fc.nat(ORGANIZATIONS - 1);
const amount = fc.integer({ min: 1, max: 400 });
const deliveries = fc.constantFrom<2 | 3>(2, 3);
export const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({
    kind: fc.constant('checkout' as const),
    org,
    instance,
    amount,
    confirmations: fc.constantFrom<1 | 2 | 3>(1, 2, 3),
  }),
  fc.record({ kind: fc.constant('paystack_checkout' as const), org, instance, amount, deliveries }),
  fc.record({
    kind: fc.constant('paystack_charge' as const),
    org,
    instance,
    amount,
    duplicate: fc.boolean(),
    deliveries,
  }),
  fc.record({
    kind: fc.constant('mpesa' as const),
    org,
    instance,
    amount,
    result: fc.constantFrom<0 | 1032>(0, 0, 1032),
    deliveries,
  }),
  fc.record({ kind: fc.constant('top_up' as const), org, instance, amount, duplicate: fc.boolean() }),
  fc.record({
    kind: fc.constant('create_session' as const),
    org,
    instance,
    type: fc.constantFrom<'kyc' | 'kyb'>('kyc', 'kyb'),
    duplicate: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('cancel_session' as const), org, instance, pick: fc.nat(), twice: fc.boolean() }),
  fc.record({
    kind: fc.constant('verify' as const),
    org,
    instance,
    pick: fc.nat(),
    outcome: fc.constantFrom<'approve' | 'reject'>('approve', 'reject'),
    twice: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('change_plan' as const),
    org,
    instance,
    plan: fc.constantFrom<'core' | 'growth' | 'scale'>('core', 'growth', 'scale'),
    seats: fc.integer({ min: 1, max: 80 }),
    duplicate: fc.boolean(),
  }),
);
