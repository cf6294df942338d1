-- The audit records as leaves of an RFC 9162 Merkle tree (issue 21). Portable SQL: H2 and PostgreSQL.
-- Leaves are the records' canonical JSON, in seq order; records written before this migration become
-- the first leaves when the gateway next starts (the hashes are computed in Java, like the chain's).

-- The record's leaf hash (hex), as the tree holds it; NULL until the record is a leaf.
ALTER TABLE audit_record ADD COLUMN leaf_hash VARCHAR(64);

-- The tree's state next to the chain head it moves with: its size, the seq before its first leaf
-- (0, unless retention had deleted records before the tree existed) and the roots of its complete
-- subtrees along the right edge (hex, comma-separated), all an append needs.
ALTER TABLE audit_chain ADD COLUMN tree_size BIGINT DEFAULT 0 NOT NULL;
ALTER TABLE audit_chain ADD COLUMN tree_base BIGINT DEFAULT 0 NOT NULL;
ALTER TABLE audit_chain ADD COLUMN tree_frontier VARCHAR(4200) DEFAULT '' NOT NULL;

-- Every complete subtree, keyed by the order appends create them (leaf hashes included). Retention
-- never deletes from it, so proofs and earlier checkpoints still hold after old records are gone.
CREATE TABLE audit_tree_node (
    id    BIGINT      NOT NULL PRIMARY KEY,
    hash  VARCHAR(64) NOT NULL
);

-- Signed checkpoints (C2SP tlog-checkpoint signed notes), one per tree size.
CREATE TABLE audit_checkpoint (
    tree_size   BIGINT        NOT NULL PRIMARY KEY,
    root_hash   VARCHAR(64)   NOT NULL,
    note        VARCHAR(4000) NOT NULL,
    created_at  TIMESTAMP WITH TIME ZONE NOT NULL
);
