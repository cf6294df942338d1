package com.sandboxgateway.sanitize;

import java.text.Normalizer;
import java.util.Collection;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Column names as the rules compare them: a leading BOM, case, width variants and every whitespace
 * character ignored, so {@code ssn}, {@code SSN}, {@code " ssn "} and a fullwidth {@code ＳＳＮ} are
 * one column. Erring towards "same column" makes a drop rule catch more, never less.
 */
final class ColumnNames {

    private ColumnNames() {
    }

    static String normalize(String name) {
        String folded = Normalizer.normalize(name, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
        StringBuilder normalized = new StringBuilder(folded.length());
        folded.codePoints()
                .filter(c -> c != '\uFEFF' && !Character.isWhitespace(c) && !Character.isSpaceChar(c))
                .forEach(normalized::appendCodePoint);
        return normalized.toString();
    }

    static Set<String> normalizeAll(Collection<String> names) {
        return names.stream().map(ColumnNames::normalize).collect(Collectors.toUnmodifiableSet());
    }
}
