package com.sandboxgateway.review;

import java.util.List;
import java.util.regex.Pattern;

/**
 * One injection rule: its {@code pattern} runs only on texts holding one of its {@code keywords}, and
 * sees them {@linkplain FoldedText#normalize normalized}.
 *
 * @param keywords folded and with single spaces, as {@link KeywordIndex} expects
 * @param source the file the rule came from, for messages about merges
 */
record InjectionRule(String id, String category, List<String> keywords, Pattern pattern, String source) {

    InjectionRule {
        keywords = List.copyOf(keywords);
    }

    InjectionMatch match() {
        return new InjectionMatch(id, category);
    }
}
