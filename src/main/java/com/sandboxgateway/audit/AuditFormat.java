package com.sandboxgateway.audit;

import org.springframework.boot.actuate.endpoint.Producible;
import org.springframework.util.MimeType;
import org.springframework.util.MimeTypeUtils;

/** What {@code GET /actuator/audit} answers, after the request's {@code Accept}: a JSON page, or JSON Lines. */
enum AuditFormat implements Producible<AuditFormat> {

    JSON(MimeTypeUtils.APPLICATION_JSON),
    JSON_LINES(MimeType.valueOf("application/x-ndjson"));

    private final MimeType mimeType;

    AuditFormat(MimeType mimeType) {
        this.mimeType = mimeType;
    }

    @Override
    public MimeType getProducedMimeType() {
        return mimeType;
    }

    @Override
    public boolean isDefault() {
        return this == JSON;
    }
}
