package com.sandboxgateway.proxy;

import org.springframework.test.context.ActiveProfiles;

/**
 * The same cases on PostgreSQL, where a background response's row rides in its answer's last statement with its
 * charge ({@code CommitTail}) and each pass takes its responses with a conditional update.
 */
@ActiveProfiles({"test", "postgres"})
class BackgroundResponseFetcherOnPostgresTest extends BackgroundResponseFetcherTest {
}
