-- One account per email address, whatever its case (docs/decisions.md#one-account-per-email): the migration after
-- this one makes lower(email) unique. Profiles that already share an address in different cases are neither merged
-- nor changed here: which account keeps the address is a person's decision. This stops the migration with a message
-- naming the user ids of each group (never the addresses, which are personal data and would reach the logs), and
-- since all pending migrations run in one transaction, none of them is applied. Resolve each group (docs/operations.md
-- "Profiles sharing an email address") and start again.
DO $$
DECLARE
  group_count integer;
  listed text;
BEGIN
  SELECT count(*), string_agg(ids, '; ' ORDER BY ids) FILTER (WHERE position <= 50)
    INTO group_count, listed
    FROM (
      SELECT '(' || string_agg(id, ', ' ORDER BY id) || ')' AS ids,
             row_number() OVER (ORDER BY min(id)) AS position
        FROM users
       GROUP BY lower(email)
      HAVING count(*) > 1
    ) AS colliding;
  IF group_count > 0 THEN
    RAISE EXCEPTION 'Email addresses must be unique whatever their case; % group(s) of profiles share one, by user id: %',
      group_count, listed || CASE WHEN group_count > 50 THEN format(' and %s more', group_count - 50) ELSE '' END
      USING HINT = 'Give every profile of a group but one another address (or delete it), then migrate again: docs/decisions.md#one-account-per-email';
  END IF;
END $$;
