package com.sandboxgateway.sanitize;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.multipart.MultipartUpload;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.RequestBody;
import com.sandboxgateway.policy.RequestStep;

/**
 * Prepares an uploaded file ({@code POST /v1/files}, {@code POST /v1/containers/{id}/files}) for the
 * upstream: reads the whole upload now, its form fields through the rules earlier steps set and each
 * file through the organisation's data rules ({@link FileSanitizer}) into the spool. A refused upload is
 * refused here, by the chain, so the upstream never receives a byte of it.
 */
public final class UploadSanitizer implements RequestStep {

    private static final Logger log = LoggerFactory.getLogger(UploadSanitizer.class);

    private final FileSanitizer files;

    public UploadSanitizer(FileSanitizer files) {
        this.files = files;
    }

    @Override
    public Decision apply(Exchange exchange) {
        if (!(exchange.body() instanceof RequestBody.Multipart multipart)) {
            return Decision.PROCEED;
        }
        SanitizationRules rules = files.rules(exchange.datasetProfile());
        if (rules == null) {
            return files.unknownProfile(exchange.datasetProfile());
        }
        try {
            multipart.upload().prepare(sanitizing(exchange, rules));
        } catch (GatewayException refused) {
            // A malformed body, a form field a rule refused, or a file the data rules refused midway.
            return Decision.Reject.of(refused);
        }
        return Decision.PROCEED;
    }

    private MultipartUpload.FileRule sanitizing(Exchange exchange, SanitizationRules rules) {
        return (headers, content, out) -> {
            switch (files.sanitize(exchange, headers.filename(), null, content, out, rules)) {
                // The form field is the param a client can act on; the message already says where in the file.
                case FileSanitizer.Outcome.Refused(Decision.Reject refusal) ->
                        throw (refusal.param() != null ? refusal : refusal.at(headers.name())).asException();
                case FileSanitizer.Outcome.Sanitized(SanitizationReport report) -> log.info("Sanitized upload for {}/{}: {}",
                        exchange.principal().team(), exchange.principal().user(), report.header());
            }
        };
    }
}
