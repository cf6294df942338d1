-- Settled turns and spend: the durable side of the budget counters (which live in memory or Redis and
-- are seeded from here when missing). Each row is charged once, by id, whichever replica settles it.

-- One row per response created through the gateway (charge_id = response id; the gateway request id when
-- the response id never arrived), and one negative row per admin reset (charge_id = 'reset:<uuid>').
-- turns is NULL while a background response still runs: its reservation counts until it is settled.
CREATE TABLE turn_charge (
    charge_id   VARCHAR(255) PRIMARY KEY,
    user_name   VARCHAR(255) NOT NULL,
    team        VARCHAR(255) NOT NULL,
    session_id  VARCHAR(255) NOT NULL,
    charge_day  DATE NOT NULL,
    reserved    INTEGER NOT NULL,
    turns       INTEGER,
    created_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    settled_at  TIMESTAMP WITH TIME ZONE
);
CREATE INDEX turn_charge_session ON turn_charge (user_name, session_id);
CREATE INDEX turn_charge_user_day ON turn_charge (user_name, charge_day);

-- Estimated spend in millionths of a dollar: 'response:<id>' for tokens, 'container:<id>' for a
-- container session, 'reset:<uuid>' (negative) for an admin reset.
CREATE TABLE spend_charge (
    charge_id   VARCHAR(255) PRIMARY KEY,
    team        VARCHAR(255) NOT NULL,
    user_name   VARCHAR(255) NOT NULL,
    charge_day  DATE NOT NULL,
    usd_micros  BIGINT NOT NULL,
    created_at  TIMESTAMP WITH TIME ZONE NOT NULL
);
CREATE INDEX spend_charge_team_day ON spend_charge (team, charge_day);
