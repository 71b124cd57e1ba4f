-- drizzle's SQLite dialect writes NULL for a column the insert leaves out (SQLite then numbers an
-- INTEGER PRIMARY KEY itself); PostgreSQL would refuse the NULL. Numbered here the same way: a NULL
-- key takes the column's identity sequence, before the NOT NULL check.
CREATE FUNCTION cairn_number_key() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.id IS NULL THEN
    NEW.id := nextval(pg_get_serial_sequence(quote_ident(TG_TABLE_NAME), 'id'));
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER "access_tokens_number_key" BEFORE INSERT ON "access_tokens" FOR EACH ROW EXECUTE FUNCTION cairn_number_key();
CREATE TRIGGER "audit_log_number_key" BEFORE INSERT ON "audit_log" FOR EACH ROW EXECUTE FUNCTION cairn_number_key();
CREATE TRIGGER "machine_access_tokens_number_key" BEFORE INSERT ON "machine_access_tokens" FOR EACH ROW EXECUTE FUNCTION cairn_number_key();
CREATE TRIGGER "rate_limit_hits_number_key" BEFORE INSERT ON "rate_limit_hits" FOR EACH ROW EXECUTE FUNCTION cairn_number_key();
CREATE TRIGGER "refresh_tokens_number_key" BEFORE INSERT ON "refresh_tokens" FOR EACH ROW EXECUTE FUNCTION cairn_number_key();
