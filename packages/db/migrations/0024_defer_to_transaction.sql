-- A statement sent outside a transaction (a verification session's create in one statement) calls this when it meets
-- a case it leaves to the transactional path (too little balance, a low-balance alert to send, a price that changed,
-- an idempotent answer not stored): the statement then fails and writes nothing, and the caller runs the transaction
-- (docs/decisions.md#a-create-in-one-statement). SQLSTATE PD001 marks the deferral; the message says why.
CREATE FUNCTION "defer_to_transaction"(reason text) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  RAISE EXCEPTION 'Deferred to the transactional path: %', reason USING ERRCODE = 'PD001';
END;
$$;
