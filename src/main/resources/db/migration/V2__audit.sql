-- The audit trail: every executed code block and every policy decision, hash-chained so that an
-- edited or deleted record is detected. Portable SQL: the same migration runs on H2 and PostgreSQL.
CREATE TABLE audit_record (
    seq                  BIGINT        NOT NULL PRIMARY KEY,
    record_id            VARCHAR(36)   NOT NULL UNIQUE,
    kind                 VARCHAR(32)   NOT NULL,
    call_id              VARCHAR(255)  UNIQUE,
    request_id           VARCHAR(64),
    upstream_request_id  VARCHAR(255),
    user_name            VARCHAR(255),
    team                 VARCHAR(255),
    session_id           VARCHAR(255),
    response_id          VARCHAR(255),
    container_id         VARCHAR(255),
    model                VARCHAR(255),
    status               VARCHAR(64),
    code                 VARCHAR(1000000),
    code_sha256          VARCHAR(64),
    outputs              VARCHAR(1000000),
    outputs_truncated    BOOLEAN       NOT NULL,
    details              VARCHAR(100000),
    created_at           TIMESTAMP WITH TIME ZONE NOT NULL,
    prev_hash            VARCHAR(64)   NOT NULL,
    hash                 VARCHAR(64)   NOT NULL
);

CREATE INDEX audit_record_by_team ON audit_record (team, created_at);
CREATE INDEX audit_record_by_user ON audit_record (user_name, created_at);
CREATE INDEX audit_record_by_session ON audit_record (session_id);
CREATE INDEX audit_record_by_container ON audit_record (container_id);

-- One row: the end of the chain (appends lock it, so writers on every replica form one chain) and
-- its start after retention removed older records.
CREATE TABLE audit_chain (
    id         INT          NOT NULL PRIMARY KEY,
    last_seq   BIGINT       NOT NULL,
    last_hash  VARCHAR(64)  NOT NULL,
    base_seq   BIGINT       NOT NULL,
    base_hash  VARCHAR(64)  NOT NULL
);

INSERT INTO audit_chain (id, last_seq, last_hash, base_seq, base_hash)
VALUES (1, 0, '0000000000000000000000000000000000000000000000000000000000000000',
        0, '0000000000000000000000000000000000000000000000000000000000000000');
