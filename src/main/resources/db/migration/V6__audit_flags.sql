-- Review signals: the flags of an audit record (risky code, instructions in uploaded data, a runaway
-- session), stored with the record as ",env_access,http_client,". NULL for records without flags,
-- including every record made before this migration: their canonical form, and so their hash, does not
-- change.
ALTER TABLE audit_record ADD COLUMN flags VARCHAR(4000);

-- The review queue: one row per flag of a record, so "flag=env_access" is an index range scan rather
-- than a LIKE over every record. audit_record.flags stays the record's own (hashed) copy.
CREATE TABLE audit_flag (
    flag  VARCHAR(64) NOT NULL,
    seq   BIGINT NOT NULL,
    PRIMARY KEY (flag, seq)
);
