package com.sandboxgateway.deploy;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the metric and label names out of a PromQL expression, well enough for the expressions of
 * this repository: names followed by {@code (} are functions, the rest of the identifiers outside
 * strings, label matchers, ranges and grouping clauses are metrics.
 */
record PromQl(Set<String> metrics, Set<String> labels) {

    private static final Pattern COMMENT = Pattern.compile("#[^\\n]*");
    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'");
    private static final Pattern MATCHERS = Pattern.compile("\\{([^}]*)}");
    private static final Pattern MATCHER_LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*(?:=~|!~|!=|=)");
    private static final Pattern GROUPING = Pattern.compile("\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\(([^)]*)\\)");
    private static final Pattern RANGE = Pattern.compile("\\[[^]]*]");
    private static final Pattern IDENTIFIER = Pattern.compile("(?<![\\w$.])([a-zA-Z_:][a-zA-Z0-9_:]*)(\\s*\\()?");
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "offset", "bool", "inf", "nan");

    static PromQl parse(String expression) {
        String text = STRING.matcher(COMMENT.matcher(expression).replaceAll("")).replaceAll("\"\"");
        Set<String> labels = new LinkedHashSet<>();
        Matcher matchers = MATCHERS.matcher(text);
        while (matchers.find()) {
            MATCHER_LABEL.matcher(matchers.group(1)).results().forEach(r -> labels.add(r.group(1)));
        }
        Matcher grouping = GROUPING.matcher(text);
        while (grouping.find()) {
            for (String label : grouping.group(1).split(",")) {
                if (!label.isBlank()) {
                    labels.add(label.strip());
                }
            }
        }
        String bare = RANGE.matcher(GROUPING.matcher(MATCHERS.matcher(text).replaceAll(" ")).replaceAll(" ")).replaceAll(" ");
        Set<String> metrics = new LinkedHashSet<>();
        IDENTIFIER.matcher(bare).results()
                .filter(r -> r.group(2) == null && !KEYWORDS.contains(r.group(1)))
                .forEach(r -> metrics.add(r.group(1)));
        return new PromQl(metrics, labels);
    }

    /** Metrics outside the contract. */
    Set<String> unknownMetrics() {
        Set<String> unknown = new LinkedHashSet<>(metrics);
        unknown.removeAll(MetricsContract.METRICS.keySet());
        return unknown;
    }

    /** Labels grouped by or matched on that none of the expression's metrics carries. */
    Set<String> unknownLabels() {
        Set<String> unknown = new LinkedHashSet<>();
        for (String label : labels) {
            if (metrics.stream().noneMatch(metric -> MetricsContract.hasLabel(metric, label))) {
                unknown.add(label);
            }
        }
        return unknown;
    }
}
