package com.sandboxgateway.secrets;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.config.PolicyProperties;

/**
 * Scans a free-text file (notes, Markdown) as it streams, chunk by chunk with an overlap so a secret
 * across a chunk boundary is still found. Blocking needs one pass; replacing (redact, pseudonymize)
 * needs a second over a private temporary copy, since a finding is only certain after more text has come.
 */
public final class TextFileGuard {

    private static final int CHUNK = 64 * 1024;

    private final SecretScanner scanner;
    private final PolicyProperties.SecretsAction secrets;
    private final PolicyProperties.PiiAction pii;
    private final TextGuard guard;

    public TextFileGuard(SecretScanner scanner, PolicyProperties.SecretsAction secrets, PolicyProperties.PiiAction pii,
                         TextGuard guard) {
        this.scanner = scanner;
        this.secrets = secrets;
        this.pii = pii;
        this.guard = guard;
    }

    public void copy(InputStream in, OutputStream out) throws IOException {
        Path copy = Files.createTempFile("text-", ".part");
        try {
            List<StreamFinding> findings = new ArrayList<>();
            StreamingScan scan = scanner.streaming();
            try (Reader reader = strictUtf8(in); Writer writer = Files.newBufferedWriter(copy, StandardCharsets.UTF_8)) {
                char[] buffer = new char[CHUNK];
                for (int read = reader.read(buffer); read >= 0; read = reader.read(buffer)) {
                    writer.write(buffer, 0, read);
                    findings.addAll(check(scan.feed(java.nio.CharBuffer.wrap(buffer, 0, read))));
                }
                findings.addAll(check(scan.finish()));
            } catch (java.nio.charset.CharacterCodingException e) {
                throw new GatewayException(ErrorCode.INVALID_FILE, "The text file is not valid UTF-8. Fix it and upload it again.");
            }
            if (findings.isEmpty()) {
                Files.copy(copy, out);
            } else {
                replace(copy, findings, out);
            }
        } finally {
            Files.deleteIfExists(copy);
        }
    }

    /** Records each finding and throws at the first the policy blocks; returns those to replace. */
    private List<StreamFinding> check(List<StreamFinding> found) {
        List<StreamFinding> replace = new ArrayList<>();
        for (StreamFinding finding : found) {
            String location = "file line " + finding.line();
            guard.record(new LocatedFinding(finding.ruleId(), finding.kind(), location));
            if (finding.kind() == Finding.Kind.SECRET) {
                if (secrets == PolicyProperties.SecretsAction.BLOCK) {
                    throw new GatewayException(ErrorCode.SECRET_DETECTED, location + " holds a credential (rule "
                            + finding.ruleId() + "). Remove it; credentials must never reach the sandbox.");
                }
                replace.add(finding);
            } else if (pii == PolicyProperties.PiiAction.BLOCK) {
                throw new GatewayException(ErrorCode.PII_DETECTED, location + " holds personal data (rule "
                        + finding.ruleId() + "). Remove it or pseudonymize it before sending.");
            } else if (pii == PolicyProperties.PiiAction.PSEUDONYMIZE) {
                replace.add(finding);
            }
        }
        return replace;
    }

    private void replace(Path copy, List<StreamFinding> findings, OutputStream out) throws IOException {
        Writer writer = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), CHUNK);
        try (BufferedReader reader = Files.newBufferedReader(copy, StandardCharsets.UTF_8)) {
            long position = 0;
            for (StreamFinding finding : findings) {
                if (finding.start() < position) {
                    continue;
                }
                transfer(reader, writer, finding.start() - position);
                char[] value = new char[(int) (finding.end() - finding.start())];
                int read = reader.read(value);
                writer.write(guard.replacement(finding.ruleId(), finding.kind(), java.nio.CharBuffer.wrap(value, 0, Math.max(read, 0))));
                position = finding.end();
            }
            reader.transferTo(writer);
        }
        writer.flush();
    }

    private static void transfer(Reader reader, Writer writer, long count) throws IOException {
        char[] buffer = new char[CHUNK];
        while (count > 0) {
            int read = reader.read(buffer, 0, (int) Math.min(buffer.length, count));
            if (read < 0) {
                return;
            }
            writer.write(buffer, 0, read);
            count -= read;
        }
    }

    private static Reader strictUtf8(InputStream in) {
        return new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT));
    }
}
