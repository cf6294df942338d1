package com.sandboxgateway.sanitize;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.RequestBody;
import com.sandboxgateway.policy.RequestStep;

/**
 * Holds every uploaded file ({@code POST /v1/files}, {@code POST /v1/containers/{id}/files}) to the
 * organisation's data rules ({@link FileSanitizer}) as the upload is read, before anything goes upstream.
 */
public final class UploadSanitizer implements RequestStep {

    private static final Logger log = LoggerFactory.getLogger(UploadSanitizer.class);

    private final FileSanitizer files;

    public UploadSanitizer(FileSanitizer files) {
        this.files = files;
    }

    @Override
    public Decision apply(Exchange exchange) {
        Route route = exchange.route().route();
        if (route != Route.FILES_UPLOAD && route != Route.CONTAINER_FILES_CREATE
                || !(exchange.body() instanceof RequestBody.Multipart multipart)) {
            return Decision.PROCEED;
        }
        SanitizationRules rules = files.rules(exchange.datasetProfile());
        if (rules == null) {
            GatewayException unknown = files.unknownProfile(exchange.datasetProfile());
            return Decision.reject(unknown.code(), unknown.getMessage());
        }
        multipart.upload().onFile((headers, content, out) -> {
            SanitizationReport report;
            try {
                report = files.sanitize(exchange, headers.filename(), null, content, out, rules);
            } catch (GatewayException refused) {
                // The form field is the param a client can act on; the message already says where in the file.
                throw refused.param() != null ? refused
                        : new GatewayException(refused.code(), refused.getMessage(), headers.name(), refused);
            }
            log.info("Sanitized upload for {}/{}: {}", exchange.principal().team(), exchange.principal().user(), report.header());
        });
        return Decision.PROCEED;
    }
}
