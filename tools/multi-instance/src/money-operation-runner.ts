import { randomUUID } from 'node:crypto';
import { accountReferenceOf } from '../../../apps/main-api/src/modules/billing/payments/reference.js';
import { PAYSTACK_WEBHOOK_PATH } from '../../../apps/main-api/src/modules/billing/providers/paystack/routes.js';
import { paystackSignature } from '../../../apps/main-api/src/modules/billing/providers/paystack/signature.js';
import { FAKE_PAYSTACK_SECRET } from '../../../apps/main-api/test/fake-paystack.js';
import type { MoneyWorld, Organization } from './money-fleets.js';
import type { On, Operation } from './money-operations.js';

const OPERATION_DEADLINE_MS = 60_000;
const MPESA_PHONE = '0712345678';

/**
 * How the money-invariants run sends its operations to a started world: `run` sends one (duplicated where it says
 * so), `withDeadline` fails with the operation if it hangs, `callbackAnswers` counts the providers' callbacks by status.
 */
export function operationRunner(world: MoneyWorld, SEED: number) {
  const { fleet, providerFleet, paystack, daraja, orgs } = world;

  const mainRequest = (
    target: Organization,
    on: On,
    url: string,
    body: object,
    key: string,
    through: 'sandbox' | 'providers' = 'sandbox',
  ) =>
    (through === 'sandbox' ? fleet : providerFleet).main[on].inject({
      method: 'POST',
      url,
      headers: {
        authorization: `Bearer ${through === 'sandbox' ? target.token : target.providerToken}`,
        'x-organization-id': target.id,
        'idempotency-key': key,
      },
      payload: body,
    });
  const backendRequest = (target: Organization, on: On, url: string, body: object | undefined, key: string) =>
    fleet.backend[on].inject({
      method: 'POST',
      url,
      headers: { 'x-service-api-key': target.apiKey, 'x-idempotency-key': key },
      ...(body === undefined ? {} : { payload: body }),
    });
  /** Instance `first`, then the other, and so on: `times` of them. */
  const alternating = (first: On, times: number) =>
    Array.from({ length: times }, (_, index) => ((first + index) % 2) as On);

  // The answers to Paystack's webhooks and Daraja's callbacks, counted by status.
  const callbackAnswers = new Map<number, number>();
  const callbacksAnswered = (responses: Array<{ statusCode: number }>) => {
    for (const { statusCode } of responses) callbackAnswers.set(statusCode, (callbackAnswers.get(statusCode) ?? 0) + 1);
    return responses;
  };

  /** Paystack's signed charge.success for `reference`, posted `times` at once, alternately to both provider instances. */
  async function paystackWebhooks(reference: string, first: On, times: number) {
    const body = paystack.chargeSuccessEvent(reference);
    const signature = paystackSignature(Buffer.from(body), FAKE_PAYSTACK_SECRET);
    const answers = await Promise.all(
      alternating(first, times).map((on) =>
        providerFleet.main[on].inject({
          method: 'POST',
          url: PAYSTACK_WEBHOOK_PATH,
          headers: { 'content-type': 'application/json', 'x-paystack-signature': signature },
          payload: body,
        }),
      ),
    );
    return callbacksAnswered(answers);
  }

  /** Runs one operation (duplicated where it says so); returns every answer's status. */
  async function run(op: Operation): Promise<number[]> {
    const target = orgs[op.org]!;
    const other = (op.instance === 0 ? 1 : 0) as On;
    const key = randomUUID();
    switch (op.kind) {
      case 'checkout': {
        // A card top-up through the hosted sandbox checkout, whose Pay confirmation arrives 1 to 3 times at
        // once on both instances.
        const started = await mainRequest(
          target,
          op.instance,
          '/v1/billing/pay',
          { method: 'card', amount: op.amount },
          key,
        );
        if (started.statusCode !== 200) return [started.statusCode];
        const checkoutPath = new URL((started.json() as { checkoutUrl: string }).checkoutUrl).pathname;
        const page = await fleet.main[op.instance].inject({ method: 'GET', url: checkoutPath });
        const cookie = String(page.headers['set-cookie'] ?? '').split(';')[0] ?? '';
        const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
        const confirmations = await Promise.all(
          alternating(op.instance, op.confirmations).map((on) =>
            fleet.main[on].inject({
              method: 'POST',
              url: checkoutPath,
              headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
              payload: new URLSearchParams({ csrf, action: 'pay' }).toString(),
            }),
          ),
        );
        return [started.statusCode, page.statusCode, ...confirmations.map((response) => response.statusCode)];
      }
      case 'paystack_checkout': {
        // A card top-up through Paystack's checkout: the customer pays there, and Paystack's signed
        // charge.success webhook arrives 2 or 3 times at once.
        const started = await mainRequest(
          target,
          op.instance,
          '/v1/billing/pay',
          { method: 'card', amount: op.amount },
          key,
          'providers',
        );
        if (started.statusCode !== 200) return [started.statusCode];
        const { reference } = started.json() as { reference: string };
        paystack.completeCheckout(reference);
        const webhooks = await paystackWebhooks(reference, op.instance, op.deliveries);
        return [started.statusCode, ...webhooks.map((response) => response.statusCode)];
      }
      case 'paystack_charge': {
        // A saved Paystack card charged (the request itself maybe sent twice with one idempotency key), then
        // the charge.success Paystack also sends for it, 2 or 3 times at once.
        const body = { method: 'saved_method', amount: op.amount, paymentMethodId: target.paystackCardId };
        const sends = [mainRequest(target, op.instance, '/v1/billing/pay', body, key, 'providers')];
        if (op.duplicate) sends.push(mainRequest(target, other, '/v1/billing/pay', body, key, 'providers'));
        const answers = await Promise.all(sends);
        const paid = answers.find((response) => response.statusCode === 200);
        if (paid === undefined) return answers.map((response) => response.statusCode);
        const { reference } = paid.json() as { reference: string };
        const webhooks = await paystackWebhooks(reference, op.instance, op.deliveries);
        return [...answers, ...webhooks].map((response) => response.statusCode);
      }
      case 'mpesa': {
        // An M-Pesa prompt the customer answers (paid or cancelled), whose result Daraja calls back 2 or 3 times
        // at once to the real callback route of both provider instances.
        const started = await mainRequest(
          target,
          op.instance,
          '/v1/billing/pay',
          { method: 'mobile_money', amount: op.amount, phone: MPESA_PHONE },
          key,
          'providers',
        );
        if (started.statusCode !== 200) return [started.statusCode];
        const { reference } = started.json() as { reference: string };
        const prompt = [...daraja.prompts.values()].find(
          (candidate) => candidate.accountReference === accountReferenceOf(reference),
        );
        if (prompt === undefined) throw new Error(`seed ${SEED}: Daraja received no prompt for ${reference}`);
        daraja.answer(prompt.checkoutRequestId, op.result);
        const callbackPath = new URL(prompt.callbackUrl).pathname;
        const payload = daraja.callbackBody(prompt.checkoutRequestId);
        const callbacks = callbacksAnswered(
          await Promise.all(
            alternating(op.instance, op.deliveries).map((on) =>
              providerFleet.main[on].inject({ method: 'POST', url: callbackPath, payload }),
            ),
          ),
        );
        return [started.statusCode, ...callbacks.map((response) => response.statusCode)];
      }
      case 'top_up': {
        const body = { method: 'saved_method', amount: op.amount, paymentMethodId: target.cardId };
        const sends = [mainRequest(target, op.instance, '/v1/billing/pay', body, key)];
        if (op.duplicate) sends.push(mainRequest(target, other, '/v1/billing/pay', body, key));
        return (await Promise.all(sends)).map((response) => response.statusCode);
      }
      case 'create_session': {
        const body = { type: op.type, externalEndUserId: `end-user-${key.slice(0, 8)}` };
        const sends = [backendRequest(target, op.instance, '/v1/verify/sessions', body, key)];
        if (op.duplicate) sends.push(backendRequest(target, other, '/v1/verify/sessions', body, key));
        const answers = await Promise.all(sends);
        const created = answers.find((response) => response.statusCode === 201);
        if (created !== undefined)
          target.sessions.push((created.json() as { data: { sessionId: string } }).data.sessionId);
        return answers.map((response) => response.statusCode);
      }
      case 'cancel_session': {
        if (target.sessions.length === 0) return [];
        const id = target.sessions[op.pick % target.sessions.length]!;
        const url = `/v1/verify/sessions/${id}/cancel`;
        const sends = [backendRequest(target, op.instance, url, undefined, randomUUID())];
        if (op.twice) sends.push(backendRequest(target, other, url, undefined, randomUUID()));
        return (await Promise.all(sends)).map((response) => response.statusCode);
      }
      case 'verify': {
        if (target.sessions.length === 0) return [];
        const id = target.sessions[op.pick % target.sessions.length]!;
        const page = await fleet.backend[op.instance].inject({ method: 'GET', url: `/session/${id}` });
        const token = /name="token" value="([^"]+)"/.exec(page.body)?.[1];
        if (token === undefined) return [page.statusCode]; // finished or expired: no form
        const act = (on: On, action: string) =>
          fleet.backend[on].inject({
            method: 'POST',
            url: `/session/${id}`,
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            payload: new URLSearchParams({ token, action }).toString(),
          });
        await act(op.instance, 'agree'); // the consent notice comes first (recorded once, however often)
        const submitted = await act(op.instance, 'submit');
        const decided = await Promise.all(
          op.twice ? [act(op.instance, op.outcome), act(other, op.outcome)] : [act(op.instance, op.outcome)],
        );
        return [page.statusCode, submitted.statusCode, ...decided.map((response) => response.statusCode)];
      }
      case 'change_plan': {
        const body = { newPlan: op.plan, newSeats: op.seats, newCycle: 'monthly', paymentMethodId: target.cardId };
        const sends = [mainRequest(target, op.instance, '/v1/billing/upgrade', body, key)];
        if (op.duplicate) sends.push(mainRequest(target, other, '/v1/billing/upgrade', body, randomUUID()));
        return (await Promise.all(sends)).map((response) => response.statusCode);
      }
    }
  }

  /** run(), failing with the operation's description if it has not finished in time (instead of a silent hang). */
  async function withDeadline(op: Operation): Promise<number[]> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`seed ${SEED}: unfinished after ${OPERATION_DEADLINE_MS} ms: ${JSON.stringify(op)}`)),
        OPERATION_DEADLINE_MS,
      );
    });
    try {
      return await Promise.race([run(op), deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  return { run, withDeadline, callbackAnswers };
}
