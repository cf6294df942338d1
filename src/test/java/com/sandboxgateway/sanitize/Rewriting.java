package com.sandboxgateway.sanitize;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Set;

import org.springframework.util.unit.DataSize;

import com.sandboxgateway.config.PolicyProperties;
import com.sandboxgateway.review.InjectionDetector;
import com.sandboxgateway.review.InjectionRules;
import com.sandboxgateway.secrets.SecretScanner;
import com.sandboxgateway.secrets.TextFileGuard;
import com.sandboxgateway.secrets.TextGuard;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import tools.jackson.databind.json.JsonMapper;

/** A file read through {@link FileRewriter} as the gateway would, with the unit tests' key and rules. */
final class Rewriting {

    private static final InjectionDetector DETECTOR = InjectionDetector.fromRules(InjectionRules.standard());

    static final Set<String> DROP = Set.of("customer_ssn");
    static final Set<String> PSEUDONYMIZE = Set.of("customer_id", "email");

    record Result(byte[] bytes, SanitizationReport report) {
    }

    private PolicyProperties.ArchivePolicy archives = PolicyProperties.ArchivePolicy.SANITIZE;
    private boolean allowMacros;
    private long maxExpanded = DataSize.ofMegabytes(64).toBytes();
    private int maxEntries = 100;
    private InstructionCheck instructions;
    private boolean scanned = true;
    private SanitizationRules rules = new SanitizationRules(DROP, PSEUDONYMIZE, true, null, Set.of());

    Rewriting archives(PolicyProperties.ArchivePolicy policy) {
        this.archives = policy;
        return this;
    }

    Rewriting allowMacros() {
        this.allowMacros = true;
        return this;
    }

    Rewriting maxExpanded(long bytes) {
        this.maxExpanded = bytes;
        return this;
    }

    Rewriting maxEntries(int entries) {
        this.maxEntries = entries;
        return this;
    }

    Rewriting requiring(String profile, Set<String> required) {
        this.rules = new SanitizationRules(DROP, PSEUDONYMIZE, true, profile, required);
        return this;
    }

    Rewriting keepingFormulas() {
        this.rules = new SanitizationRules(DROP, PSEUDONYMIZE, false, rules.profile(), rules.required());
        return this;
    }

    /** No secret scan: for measuring the reading and writing alone. */
    Rewriting unscanned() {
        this.scanned = false;
        return this;
    }

    /** Streams a file from disk to {@code out}, as an upload would. */
    SanitizationReport rewrite(java.nio.file.Path file, java.io.OutputStream out) throws IOException {
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(file)) {
            return rewriter().rewrite(file.getFileName().toString(), in, out, 0);
        }
    }

    Result rewrite(String name, byte[] content) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SanitizationReport report = rewriter().rewrite(name, new ByteArrayInputStream(content), out, 0);
        return new Result(out.toByteArray(), report);
    }

    private FileRewriter rewriter() {
        PolicyProperties.Files files = new PolicyProperties.Files(DataSize.ofMegabytes(100), java.time.Duration.ofHours(1),
                java.time.Duration.ofDays(7), false, List.of("txt", "md", "pdf", "png", "jpg"), archives, allowMacros,
                DataSize.ofBytes(maxExpanded), maxEntries, 100,
                new PolicyProperties.FileUrls(List.of(), java.time.Duration.ofSeconds(5), java.time.Duration.ofSeconds(30)));
        SecretScanner scanner = SecretScanner.standard();
        TextGuard guard = new TextGuard(scanner, PolicyProperties.SecretsAction.BLOCK, PolicyProperties.PiiAction.REPORT, null);
        instructions = new InjectionScreening(DETECTOR, PolicyProperties.InjectionAction.REPORT, new SimpleMeterRegistry())
                .forFile("analytics");
        return new FileRewriter(files, rules, CsvSanitizerTest.PSEUDONYMIZER.session(), scanned ? guard : null, scanned ? instructions : null,
                new TextFileGuard(scanner, PolicyProperties.SecretsAction.BLOCK, PolicyProperties.PiiAction.REPORT, guard),
                JsonMapper.builder().build(), false);
    }

    /** Where the last file held instructions aimed at a model. */
    InstructionCheck instructions() {
        return instructions;
    }

    /** The pseudonym the unit tests' key gives a value. */
    static String pseudonym(String value) {
        return CsvSanitizerTest.PSEUDONYMIZER.pseudonym(value);
    }
}
