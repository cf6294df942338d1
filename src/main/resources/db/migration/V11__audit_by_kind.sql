-- Reviewers ask for one kind of record ("kind=shell": the hosted shell calls, "kind=code": the executed
-- code blocks): an index range scan in sequence order rather than a scan of every record. A new kind
-- (SHELL_EXECUTION) needs no change to audit_record: kind is free text, and the hash of a record made
-- before this migration does not change.
CREATE INDEX audit_record_by_kind ON audit_record (kind, seq);
