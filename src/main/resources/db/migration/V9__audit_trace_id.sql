-- The OpenTelemetry trace of the request that made a record, when tracing is on. NULL for records made
-- without tracing, including every record made before this migration: their canonical form, and so their
-- hash, does not change.
ALTER TABLE audit_record ADD COLUMN trace_id VARCHAR(32);
