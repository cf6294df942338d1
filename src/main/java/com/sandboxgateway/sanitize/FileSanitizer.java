package com.sandboxgateway.sanitize;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Clock;
import java.util.List;
import java.util.function.Supplier;

import org.springframework.context.ApplicationEventPublisher;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.api.GatewayHeaders;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.config.PolicyProperties;
import com.sandboxgateway.secrets.SecretScanner;
import com.sandboxgateway.secrets.SensitiveDataFound;
import com.sandboxgateway.secrets.TextFileGuard;
import com.sandboxgateway.secrets.TextGuard;

import tools.jackson.databind.json.JsonMapper;

/**
 * The organisation's data rules applied to one file, however it arrives (a multipart upload, or a file
 * sent inline in a request), in the format its content shows ({@link FileRewriter}): tables (CSV, TSV,
 * JSON Lines, JSON arrays, XLSX sheets, also inside gzip and zip) are rewritten (columns dropped,
 * pseudonymized, formulas defused, a profile's required columns checked, cells scanned for credentials
 * and planted instructions), text is scanned line by line, bytes that cannot hold a table pass unchanged
 * when the policy lists their type, anything else is refused; all are size-capped. What was done is
 * published for the audit and metrics.
 */
public final class FileSanitizer {

    private final PolicyProperties.Files files;
    private final PolicyProperties.Sanitization sanitization;
    private final Pseudonymizer pseudonymizer;
    private final Supplier<TextGuard> guards;
    private final SecretScanner scanner;
    private final PolicyProperties.SecretsAction secrets;
    private final PolicyProperties.PiiAction pii;
    private final JsonMapper json;
    private final InjectionScreening injection;
    private final ApplicationEventPublisher events;
    private final Clock clock;

    /**
     * @param pseudonymizer null when the policy pseudonymizes nothing
     * @param guards a fresh guard per file, scanning for credentials and personal data
     * @param injection checks the text that goes upstream for instructions aimed at a model
     */
    public FileSanitizer(PolicyProperties policy, Pseudonymizer pseudonymizer, Supplier<TextGuard> guards, SecretScanner scanner,
                  JsonMapper json, InjectionScreening injection, ApplicationEventPublisher events, Clock clock) {
        this.files = policy.org().files();
        this.sanitization = policy.org().sanitization();
        this.secrets = policy.org().secrets().action();
        this.pii = policy.org().pii().action();
        this.pseudonymizer = pseudonymizer;
        this.guards = guards;
        this.scanner = scanner;
        this.json = json;
        this.injection = injection;
        this.events = events;
        this.clock = clock;
    }

    /** The rules for the request's dataset profile; {@code null} when it names a profile the policy lacks. */
    SanitizationRules rules(String profile) {
        if (profile != null && !sanitization.profiles().containsKey(profile)) {
            return null;
        }
        List<String> required = profile == null ? List.of() : sanitization.profiles().get(profile).requiredColumns();
        return new SanitizationRules(ColumnNames.normalizeAll(sanitization.dropColumns()),
                ColumnNames.normalizeAll(sanitization.pseudonymizeColumns()), sanitization.neutralizeFormulas(), profile,
                ColumnNames.normalizeAll(required));
    }

    /** The refusal of an unknown {@code X-Gateway-Dataset-Profile}. */
    Decision.Reject unknownProfile(String profile) {
        return Decision.reject(ErrorCode.INVALID_REQUEST, "Unknown dataset profile '" + profile + "' in "
                + GatewayHeaders.DATASET_PROFILE + "; the policy defines: " + String.join(", ", sanitization.profiles().keySet()) + ".");
    }

    /** What became of one file: rewritten into the output, or refused (then nothing of it may go upstream). */
    public sealed interface Outcome {

        record Sanitized(SanitizationReport report) implements Outcome {
        }

        record Refused(Decision.Reject refusal) implements Outcome {
        }
    }

    /**
     * Reads one file through the rules into {@code out}, then reports what was done: the findings and the
     * sanitization are published, and the answer gets {@code X-Gateway-Sanitized} (and {@code X-Gateway-Flags}).
     *
     * @param location where the file was in the request ({@code input[0].content[1]}), or {@code null} for an upload
     * @return {@link Outcome.Refused} when the file breaks a rule
     * @throws IOException when the file cannot be read or the output written
     */
    Outcome sanitize(Exchange exchange, String filename, String location, InputStream content, OutputStream out,
                                SanitizationRules rules) throws IOException {
        return sanitize(exchange, filename, location, content, out, rules, false);
    }

    /**
     * Reads one part of a skill through the rules, as {@link #sanitize} reads an upload, with the org's rules (no
     * dataset profile): a zip is the whole bundle, read entry by entry, anything else one file of the skill named
     * by its path in it. Text is read as text whatever its name (scripts, {@code SKILL.md}), each line scanned for
     * credentials and planted instructions; data files are sanitized; programs, archives inside the bundle and
     * binary files of types the policy does not list, and names that point outside the skill, are refused.
     *
     * @param location where the bundle sat in the request ({@code skills[0].source}), or {@code null} for an upload
     * @return {@link Outcome.Refused} when the part breaks a rule; nothing of it may then go upstream
     * @throws IOException when the part cannot be read or the output written
     */
    public Outcome sanitizeSkill(Exchange exchange, String name, String location, InputStream content, OutputStream out)
            throws IOException {
        return sanitize(exchange, name, location, content, out, rules(null), true);
    }

    private Outcome sanitize(Exchange exchange, String filename, String location, InputStream content, OutputStream out,
                                        SanitizationRules rules, boolean skill) throws IOException {
        TextGuard guard = guards.get();
        InstructionCheck instructions = injection.forFile(exchange.principal().team());
        SanitizationReport report;
        try {
            report = rewrite(filename, content, out, rules, guard, instructions, skill);
        } catch (GatewayException refused) {
            // The rewriters abandon a file midway by throwing; here it becomes the refusal it is.
            return new Outcome.Refused(Decision.Reject.of(refused));
        } finally {
            // A refused file's findings count as much as a sent one's: every finding is one record and one count.
            if (!guard.findings().isEmpty()) {
                events.publishEvent(new SensitiveDataFound(exchange.requestId(), exchange.principal(), guard.findings(),
                        guard.handling(), clock.instant()));
            }
        }
        exchange.addResponseHeader(GatewayHeaders.SANITIZED, report.header());
        if (instructions.header() != null) {
            exchange.addResponseHeader(GatewayHeaders.FLAGS, instructions.header());
        }
        events.publishEvent(new UploadSanitized(exchange.requestId(), exchange.principal(), filename, location, report,
                instructions.found(), instructions.total(), clock.instant()));
        return new Outcome.Sanitized(report);
    }

    private SanitizationReport rewrite(String filename, InputStream content, OutputStream out, SanitizationRules rules,
                                       TextGuard guard, InstructionCheck instructions, boolean skill) throws IOException {
        FileRewriter rewriter = new FileRewriter(files, rules, pseudonyms(), guard, instructions,
                new TextFileGuard(scanner, secrets, pii, guard), json, skill);
        InputStream capped = new SizeLimitedInputStream(content, files.maxUploadSize().toBytes());
        return skill ? rewriter.skillPart(filename, capped, out) : rewriter.rewrite(filename, capped, out, 0);
    }

    /** Null only when no column is pseudonymized, which the startup checks guarantee. */
    private Pseudonymizer.Session pseudonyms() {
        return pseudonymizer == null ? null : pseudonymizer.session();
    }
}
