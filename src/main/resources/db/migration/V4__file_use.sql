-- Files a background response uses, deleted upstream once it completes (delete-after-use).
CREATE TABLE file_use (
    response_id  VARCHAR(255) NOT NULL,
    file_id      VARCHAR(255) NOT NULL,
    PRIMARY KEY (response_id, file_id)
);
