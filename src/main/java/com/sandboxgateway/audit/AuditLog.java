package com.sandboxgateway.audit;

/**
 * Where the gateway writes what must never be lost. A record is durable (in the database or, while
 * it is unreachable, in the local spool) when {@link #record} returns.
 */
public interface AuditLog {

    /**
     * @throws com.sandboxgateway.api.GatewayException {@code audit_unavailable} when the record could be
     *         made durable nowhere; the request that produced it must fail
     */
    void record(AuditRecord record);
}
