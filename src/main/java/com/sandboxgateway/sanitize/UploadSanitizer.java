package com.sandboxgateway.sanitize;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.api.GatewayHeaders;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.multipart.PartHeaders;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.PolicyProperties;
import com.sandboxgateway.policy.RequestBody;
import com.sandboxgateway.policy.RequestStep;
import com.sandboxgateway.secrets.SecretScanner;
import com.sandboxgateway.secrets.SensitiveDataFound;
import com.sandboxgateway.secrets.TextFileGuard;
import com.sandboxgateway.secrets.TextGuard;

import tools.jackson.databind.json.JsonMapper;

/**
 * Holds every uploaded file to the organisation's data rules: CSV, TSV and JSON Lines are rewritten
 * (columns dropped, pseudonymized, formulas defused, a profile's required columns checked), opaque
 * types pass unchanged, anything else is refused; all are size-capped. The work happens as the upload
 * is read, before anything goes upstream.
 */
public final class UploadSanitizer implements RequestStep {

    private static final Logger log = LoggerFactory.getLogger(UploadSanitizer.class);
    private static final int SNIFF_BYTES = 8 * 1024;

    private final PolicyProperties.Files files;
    private final PolicyProperties.Sanitization sanitization;
    private final Pseudonymizer pseudonymizer;
    private final Supplier<TextGuard> guards;
    private final SecretScanner scanner;
    private final PolicyProperties.SecretsAction secrets;
    private final PolicyProperties.PiiAction pii;
    private final JsonMapper json;
    private final ApplicationEventPublisher events;
    private final InjectionScreening injection;

    /**
     * @param pseudonymizer null when the policy pseudonymizes nothing
     * @param guards a fresh guard per upload, scanning for credentials and personal data
     * @param injection checks the text that goes upstream for instructions aimed at a model
     */
    public UploadSanitizer(PolicyProperties policy, Pseudonymizer pseudonymizer, Supplier<TextGuard> guards,
                           SecretScanner scanner, JsonMapper json, ApplicationEventPublisher events, InjectionScreening injection) {
        this.files = policy.org().files();
        this.sanitization = policy.org().sanitization();
        this.secrets = policy.org().secrets().action();
        this.pii = policy.org().pii().action();
        this.pseudonymizer = pseudonymizer;
        this.guards = guards;
        this.scanner = scanner;
        this.json = json;
        this.events = events;
        this.injection = injection;
    }

    @Override
    public Decision apply(Exchange exchange) {
        Route route = exchange.route().route();
        if (route != Route.FILES_UPLOAD && route != Route.CONTAINER_FILES_CREATE
                || !(exchange.body() instanceof RequestBody.Multipart multipart)) {
            return Decision.PROCEED;
        }
        String profile = exchange.datasetProfile();
        if (profile != null && !sanitization.profiles().containsKey(profile)) {
            return Decision.reject(ErrorCode.INVALID_REQUEST, "Unknown dataset profile '" + profile + "' in "
                    + GatewayHeaders.DATASET_PROFILE + "; the policy defines: " + String.join(", ", sanitization.profiles().keySet()) + ".");
        }
        SanitizationRules rules = rules(profile);
        multipart.upload().onFile((headers, content, out) -> {
            TextGuard guard = guards.get();
            InstructionCheck instructions = injection.forFile(exchange.principal().team());
            SanitizationReport report = sanitize(headers, content, out, rules, guard, instructions);
            if (!guard.findings().isEmpty()) {
                events.publishEvent(new SensitiveDataFound(exchange.requestId(), exchange.principal(), guard.findings(),
                        guard.handling(), java.time.Instant.now()));
            }
            exchange.addResponseHeader(GatewayHeaders.SANITIZED, report.header());
            if (instructions.header() != null) {
                exchange.addResponseHeader(GatewayHeaders.FLAGS, instructions.header());
            }
            log.info("Sanitized upload for {}/{}: {}", exchange.principal().team(), exchange.principal().user(), report.header());
            events.publishEvent(new UploadSanitized(exchange.requestId(), exchange.principal(), headers.filename(), report,
                    instructions.found(), instructions.total(), java.time.Instant.now()));
        });
        return Decision.PROCEED;
    }

    private SanitizationReport sanitize(PartHeaders headers, InputStream content, OutputStream out, SanitizationRules rules,
                                        TextGuard guard, InstructionCheck instructions) throws IOException {
        FileFormat format = FileFormat.byName(headers.filename(), files.opaqueExtensions());
        if (format == null) {
            throw new GatewayException(ErrorCode.UNSUPPORTED_FILE_TYPE, "The file '" + headers.filename()
                    + "' has a type the policy does not accept. Upload CSV, TSV or JSON Lines data, or one of: "
                    + String.join(", ", files.opaqueExtensions()) + ".");
        }
        BufferedInputStream in = new BufferedInputStream(new SizeLimitedInputStream(content, files.maxUploadSize().toBytes()), 64 * 1024);
        in.mark(SNIFF_BYTES);
        byte[] head = in.readNBytes(SNIFF_BYTES);
        in.reset();
        String contradiction = format.contradiction(head, head.length);
        if (contradiction != null) {
            throw new GatewayException(ErrorCode.UNSUPPORTED_FILE_TYPE, "The file '" + headers.filename()
                    + "' does not match its extension: " + contradiction + ".");
        }
        return switch (format) {
            case CSV -> new CsvSanitizer(',', rules, pseudonyms(), guard, instructions).sanitize(in, out);
            case TSV -> new CsvSanitizer('\t', rules, pseudonyms(), guard, instructions).sanitize(in, out);
            case JSONL -> new JsonLinesSanitizer(rules, pseudonyms(), json, guard, instructions).sanitize(in, out);
            case OPAQUE -> {
                if (FileFormat.isText(headers.filename())) {
                    TextLinesChecked checked = new TextLinesChecked(out, instructions);
                    new TextFileGuard(scanner, secrets, pii, guard).copy(in, checked);
                    checked.flush();
                    checked.finish();
                } else {
                    in.transferTo(out);
                }
                yield new SanitizationReport("opaque", List.of(), List.of(), 0, null);
            }
        };
    }

    /** Null only when no column is pseudonymized, which the startup checks guarantee. */
    private Pseudonymizer.Session pseudonyms() {
        return pseudonymizer == null ? null : pseudonymizer.session();
    }

    private SanitizationRules rules(String profile) {
        List<String> required = profile == null ? List.of() : sanitization.profiles().get(profile).requiredColumns();
        return new SanitizationRules(ColumnNames.normalizeAll(sanitization.dropColumns()),
                ColumnNames.normalizeAll(sanitization.pseudonymizeColumns()), sanitization.neutralizeFormulas(), profile,
                ColumnNames.normalizeAll(required));
    }
}
