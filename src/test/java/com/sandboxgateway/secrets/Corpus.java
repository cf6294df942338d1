package com.sandboxgateway.secrets;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The test corpus in {@code src/test/resources/secrets/}: one case per line, {@code #} comments, and
 * the escapes {@code \n}, {@code \t}, {@code \\} so a case can hold line breaks and literal backslashes.
 */
final class Corpus {

    /** A text that must yield a {@code ruleId} finding covering exactly {@code [start, end)}. */
    record Positive(int lineNumber, String ruleId, String text, int start, int end) {
    }

    private Corpus() {
    }

    /** {@code true-positives.tsv}: {@code rule-id<TAB>text}, the expected span marked with « and ». */
    static List<Positive> positives() {
        List<Positive> cases = new ArrayList<>();
        List<String> lines = lines("true-positives.tsv");
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int tab = line.indexOf('\t');
            String marked = unescape(line.substring(tab + 1));
            int start = marked.indexOf('«');
            int end = marked.indexOf('»') - 1;
            String text = marked.replace("«", "").replace("»", "");
            cases.add(new Positive(i + 1, line.substring(0, tab), text, start, end));
        }
        return cases;
    }

    /** {@code false-positives.txt}: texts with nothing to find. */
    static List<String> negatives() {
        return lines("false-positives.txt").stream()
                .filter(line -> !line.isBlank() && !line.startsWith("#"))
                .map(Corpus::unescape)
                .toList();
    }

    static String unescape(String line) {
        StringBuilder text = new StringBuilder(line.length());
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\\' && i + 1 < line.length()) {
                char next = line.charAt(++i);
                text.append(switch (next) {
                    case 'n' -> '\n';
                    case 't' -> '\t';
                    default -> next;
                });
            } else {
                text.append(c);
            }
        }
        return text.toString();
    }

    private static List<String> lines(String name) {
        try (InputStream in = Corpus.class.getResourceAsStream("/secrets/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource secrets/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
