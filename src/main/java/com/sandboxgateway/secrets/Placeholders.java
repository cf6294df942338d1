package com.sandboxgateway.secrets;

import java.util.Locale;
import java.util.Set;

/**
 * Values that stand in for a secret rather than being one: template variables ({@code ${DB_PASSWORD}},
 * {@code {{ token }}}, {@code <your-key>}, {@code %s}), masks ({@code ********}, {@code xxxxxxxx}),
 * well-known words ({@code changeme}, {@code password}) and documentation values such as AWS's
 * {@code AKIAIOSFODNN7EXAMPLE}. Documentation and configuration templates are full of these, and
 * flagging them would teach users to ignore the scanner.
 */
final class Placeholders {

    private static final Set<String> WORDS = Set.of(
            "password", "passwd", "pass", "pwd", "secret", "token", "apikey", "api_key", "api-key", "key",
            "changeme", "changeit", "change_me", "change-me", "test", "testing", "none", "null", "nil", "true",
            "false", "undefined", "empty", "hidden", "masked", "default", "string", "value", "admin", "root",
            "user", "username", "mypassword", "mysecret", "secretpassword", "letmein", "foobar", "foo", "bar");
    /** Fragments no real random credential contains but placeholder text often does. */
    private static final String[] TELLTALES = {
            "your", "example", "placeholder", "redacted", "changeme", "change_me", "dummy", "insert", "replace",
            "sample", "xxxx", "****", "..."};
    private static final CharClass MASK = CharClass.of("*xX#._-");

    private Placeholders() {
    }

    static boolean isPlaceholder(String value) {
        if (value.isEmpty()) {
            return true;
        }
        String lower = value.toLowerCase(Locale.ROOT);
        if (WORDS.contains(lower) || isTemplate(value) || MASK.all(value, 0, value.length())) {
            return true;
        }
        for (String telltale : TELLTALES) {
            if (containsWord(value, lower, telltale)) {
                return true;
            }
        }
        return fewDistinct(value) || isSequence(value);
    }

    /**
     * Whether {@code telltale} occurs in {@code value} in one case ({@code YOUR_KEY}, {@code <your-key>}) and,
     * when shorter than six letters, at the start of a word: a random 150-character token contains
     * {@code your} by chance now and then, but never {@code example}.
     */
    private static boolean containsWord(String value, String lower, String telltale) {
        for (int at = lower.indexOf(telltale); at >= 0; at = lower.indexOf(telltale, at + 1)) {
            boolean startsWord = telltale.length() >= 6 || at == 0 || !Character.isLetter(lower.charAt(at - 1));
            String original = value.substring(at, at + telltale.length());
            boolean oneCase = original.equals(telltale) || original.equals(telltale.toUpperCase(Locale.ROOT));
            if (startsWord && oneCase) {
                return true;
            }
        }
        return false;
    }

    private static boolean isTemplate(String value) {
        char first = value.charAt(0);
        char last = value.charAt(value.length() - 1);
        return value.contains("${") || value.contains("{{") || value.contains("}}") || value.contains("<%")
                || value.contains("#{") || value.contains("%(") || value.equals("%s")
                || (first == '<' && last == '>') || (first == '[' && last == ']') || (first == '{' && last == '}')
                || (first == '$' && value.length() > 1 && (Character.isLetter(value.charAt(1)) || value.charAt(1) == '_'))
                || (value.startsWith("__") && value.endsWith("__"));
    }

    /** {@code aaaaaaaa}, {@code abababab}: two or fewer distinct characters. */
    private static boolean fewDistinct(String value) {
        char first = value.charAt(0);
        char second = first;
        for (int i = 1; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c != first) {
                if (second == first) {
                    second = c;
                } else if (c != second) {
                    return false;
                }
            }
        }
        return true;
    }

    /** {@code 12345678}, {@code abcdefgh}: each character one more than the one before. */
    private static boolean isSequence(String value) {
        for (int i = 1; i < value.length(); i++) {
            if (value.charAt(i) != value.charAt(i - 1) + 1) {
                return false;
            }
        }
        return true;
    }
}
