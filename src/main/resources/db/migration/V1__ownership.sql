-- Who owns each object created through the gateway. One org key upstream means OpenAI cannot tell
-- teams apart; this table can. Portable SQL: the same migration runs on H2 and PostgreSQL.
CREATE TABLE owned_object (
    id          VARCHAR(255) NOT NULL PRIMARY KEY,
    kind        VARCHAR(32)  NOT NULL,
    owner_user  VARCHAR(255) NOT NULL,
    owner_team  VARCHAR(255) NOT NULL,
    parent_id   VARCHAR(255),
    created_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    expires_at  TIMESTAMP WITH TIME ZONE,
    deleted_at  TIMESTAMP WITH TIME ZONE
);

CREATE INDEX owned_object_by_team ON owned_object (owner_team, kind);
CREATE INDEX owned_object_by_expiry ON owned_object (kind, expires_at);
