-- The reaper's pass takes a batch of the live objects of a kind: files past their expiry, containers whatever their
-- expiry, soonest expired then oldest first. With owned_object_by_expiry (kind, expires_at) each pass read and sorted
-- every object of the kind ever recorded, deleted ones included (they stay on record so an id never changes hands):
-- once a minute, a scan that grew with the table. This index holds the live objects of a kind together, in the order a
-- pass takes them, so a pass reads its batch and stops. Portable SQL: H2 and PostgreSQL.
DROP INDEX owned_object_by_expiry;
CREATE INDEX owned_object_reapable ON owned_object (kind, deleted_at, expires_at, created_at);

-- owned_object_by_team (owner_team, kind) served one query, the admin's list of a team's live containers, and cost an
-- index entry for every object every answer records (five for a code-running answer). The list now reads the live
-- containers from the index above, a range bounded by what is alive (the reaper deletes idle containers), not by what
-- was ever recorded.
DROP INDEX owned_object_by_team;
