-- Reviewers search executed code by its SHA-256 (the review console's "code hash" search): an index
-- rather than a scan of every record. Records without code (policy decisions) have NULL here.
CREATE INDEX audit_record_by_code_hash ON audit_record (code_sha256);
