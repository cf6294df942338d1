-- Background responses whose turns are still pending: until one is fetched finished (by its client, or by the gateway
-- every gateway.background-responses.interval), the code it ran is neither audited nor its turns settled. A row of its
-- own, written only for background responses and removed once settled, so finding them reads no more than they are.
CREATE TABLE background_response (
    charge_id   VARCHAR(255) NOT NULL PRIMARY KEY,
    user_name   VARCHAR(255) NOT NULL,
    team        VARCHAR(255) NOT NULL,
    created_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    fetched_at  TIMESTAMP WITH TIME ZONE
);
