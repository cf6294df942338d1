-- Review signals: the flags of an audit record (risky code, instructions in uploaded data, a runaway
-- session), stored as ",env_access,http_client," so that "flag=env_access" is one LIKE on both H2 and
-- PostgreSQL. NULL for records without flags, including every record made before this migration: their
-- canonical form, and so their hash, does not change.
ALTER TABLE audit_record ADD COLUMN flags VARCHAR(4000);
