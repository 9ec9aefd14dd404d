import { randomUUID } from 'node:crypto';
import type { ApiKeyOwner, Database } from '@platform/db';
import { captureHold, placeHold, releaseHold, topUpWallet } from '@platform/ledger';
import { sql } from 'drizzle-orm';

// History for the list rows, so each reads a full page of 50 with more after it: wallet movements written by the
// ledger's own functions, payments with the receipts of the successful ones, and verification sessions.

/**
 * `sessions` holds of 50 KES on the wallet, each captured (two in three) or released, with a top-up every tenth:
 * more than two movements per session, in one transaction. The sessions exist only in the ledger's references.
 */
export async function seedWalletHistory(db: Database, wallet: ApiKeyOwner, sessions: number): Promise<void> {
  await db.transaction(async (tx) => {
    for (let index = 0; index < sessions; index += 1) {
      if (index % 10 === 0) {
        await topUpWallet(tx, wallet, { amount: 5_000, reference: `bench-history:${randomUUID()}` });
      }
      const reference = `verification_session:${randomUUID()}`;
      await placeHold(tx, wallet, { amount: 50, reference, description: 'kyc verification' });
      if (index % 3 === 2) await releaseHold(tx, wallet, reference, 'kyc verification canceled');
      else await captureHold(tx, wallet, reference, 'kyc verification verified');
    }
  });
}

/**
 * `count` payments of the organization over the last `count` hours, started by `userId`: three in five succeeded
 * (each with its receipt, numbered from 1), the others failed or expired; card and M-Pesa in turn, every tenth a
 * subscription renewal and the rest wallet top-ups.
 */
export async function seedPayments(
  db: Database,
  organization: { id: string; name: string },
  userId: string,
  count: number,
  now = new Date(),
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into payments (reference, organization_id, user_id, method, channel, purpose, provider, status, amount,
        phone, plan, seats, billing_cycle, provider_reference, failure_reason, next_check_at, created_at, updated_at,
        completed_at)
      select 'PAY-' || gen_random_uuid(), ${organization.id}::uuid, ${userId}, channel, channel, purpose, 'sandbox',
             status, amount, case when channel = 'mobile_money' then '2547' || lpad((10000000 + n)::text, 8, '0') end,
             case when renewal then 'scale' end, case when renewal then 20 end, case when renewal then 'monthly' end,
             'bench-' || n, case when status = 'failed' then 'Declined by the bench' end, at, at, at, at
      from (
        select n,
               case when n % 2 = 0 then 'card' else 'mobile_money' end as channel,
               n % 10 = 0 as renewal,
               case when n % 10 = 0 then 'mail_subscription_renewal' else 'wallet_topup' end as purpose,
               (array['succeeded', 'succeeded', 'succeeded', 'failed', 'expired'])[1 + n % 5] as status,
               case when n % 10 = 0 then 12000 else 1000 + (n % 7) * 500 end as amount,
               ${now.toISOString()}::timestamptz - make_interval(hours => n) as at
        from generate_series(1, ${count}::int) as n
      ) as planned`);
    await tx.execute(sql`
      insert into receipts (sequence, number, payment_id, organization_id, issued_at, seller_name, seller_address,
        seller_kra_pin, buyer_name, purpose, plan, seats, billing_cycle, total, net, vat, vat_rate_percent,
        payment_reference, channel, provider, provider_reference, paid_at)
      select sequence, 'RCT-' || lpad(sequence::text, 6, '0'), id, organization_id, completed_at, 'Bench Platform Ltd',
             'Nairobi', 'P000000000A', ${organization.name}, purpose, plan, seats, billing_cycle, amount,
             amount - round(amount * 16 / 116.0)::int, round(amount * 16 / 116.0)::int, 16, reference, channel, provider,
             provider_reference, completed_at
      from (
        select *, row_number() over (order by completed_at, id) as sequence
        from payments where organization_id = ${organization.id}::uuid and status = 'succeeded'
      ) as paid`);
    await tx.execute(sql`
      insert into document_number_series (series, last_number)
      select 'receipt', count(*) from receipts having count(*) > 0
      on conflict (series) do update set last_number = excluded.last_number`);
  });
}

/**
 * `count` live verification sessions of the organization over the last `count` hours, for the dashboard's
 * Verifications page: kyc and kyb in turn, in every status a list shows (each with its first transition), held from
 * its live wallet. Their holds are not in the ledger: the list reads only the sessions.
 */
export async function seedVerificationSessions(
  db: Database,
  organizationId: string,
  count: number,
  now = new Date(),
): Promise<void> {
  await db.execute(sql`
    with wallet as (
      select id from wallets where organization_id = ${organizationId}::uuid and environment = 'live'
    ), planned as (
      select gen_random_uuid() as id, n,
             case when n % 2 = 0 then 'kyc' else 'kyb' end as type,
             (array['pending', 'processing', 'verified', 'rejected', 'canceled', 'expired'])[1 + n % 6] as status,
             ${now.toISOString()}::timestamptz - make_interval(hours => n) as at
      from generate_series(1, ${count}::int) as n
    ), sessions as (
      insert into verification_sessions (id, organization_id, environment, wallet_id, type, status,
        external_end_user_id, app_name, decision_source, price, required_documents, expires_at, created_at, updated_at)
      select p.id, ${organizationId}::uuid, 'live', w.id, p.type, p.status, 'bench-borrower-' || p.n, 'Bench', 'manual',
             case when p.type = 'kyc' then 50 else 200 end,
             case when p.type = 'kyc' then '["national_id_or_passport", "selfie"]'::jsonb
                  else '["certificate_of_incorporation", "cr12", "kra_pin_certificate", "director_ids"]'::jsonb end,
             p.at + interval '7 days', p.at, p.at
      from planned p cross join wallet w
      returning id, created_at
    )
    insert into verification_session_transitions (session_id, from_status, to_status, actor, created_at)
    select id, null, 'pending', 'api_key:bench', created_at from sessions`);
}
