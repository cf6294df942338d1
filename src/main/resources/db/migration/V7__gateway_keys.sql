-- Gateway keys issued at run time (POST /actuator/keys). Only the SHA-256 of a key is stored; the
-- plaintext is shown once, when it is issued. A rotated key keeps its id, owner and limits: the new
-- key's hash replaces sha256 and the old one stays accepted, as previous_sha256, until
-- previous_valid_until. A revoked key keeps its row (revoked_at), so the listing shows what happened.
CREATE TABLE gateway_key (
    key_id                VARCHAR(64) PRIMARY KEY,
    sha256                CHAR(64) NOT NULL UNIQUE,
    prefix                VARCHAR(32) NOT NULL,
    user_name             VARCHAR(255) NOT NULL,
    team                  VARCHAR(255) NOT NULL,
    roles                 VARCHAR(1000) NOT NULL,
    created_at            TIMESTAMP WITH TIME ZONE NOT NULL,
    created_by            VARCHAR(255) NOT NULL,
    expires_at            TIMESTAMP WITH TIME ZONE,
    revoked_at            TIMESTAMP WITH TIME ZONE,
    last_used_at          TIMESTAMP WITH TIME ZONE,
    previous_sha256       CHAR(64),
    previous_valid_until  TIMESTAMP WITH TIME ZONE,
    -- Limits that narrow the team's policy for this key; NULL: the team's.
    requests_per_minute   INTEGER,
    allowed_tools         VARCHAR(1000),
    turns_per_session     INTEGER
);
CREATE INDEX gateway_key_previous ON gateway_key (previous_sha256);
CREATE INDEX gateway_key_user ON gateway_key (user_name);
