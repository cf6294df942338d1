package com.sandboxgateway.sanitize;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
            return files.unknownProfile(exchange.datasetProfile());
        }
        multipart.upload().onFile((headers, content, out) -> {
            switch (files.sanitize(exchange, headers.filename(), null, content, out, rules)) {
                // The form field is the param a client can act on; the message already says where in the file.
                case FileSanitizer.Outcome.Refused(Decision.Reject refusal) ->
                        throw (refusal.param() != null ? refusal : refusal.at(headers.name())).asException();
                case FileSanitizer.Outcome.Sanitized(SanitizationReport report) -> log.info("Sanitized upload for {}/{}: {}",
                        exchange.principal().team(), exchange.principal().user(), report.header());
            }
        });
        return Decision.PROCEED;
    }
}
