package com.sandboxgateway.secrets;

/**
 * A random-looking value assigned to a key whose name says it is secret, in the forms configuration
 * and code use: {@code DB_PASSWORD=…}, {@code password: …} (YAML), {@code "client_secret": "…"} (JSON,
 * also with escaped quotes), {@code api_key = '…'}, {@code token := …}, {@code 'secret' => '…'},
 * {@code ?token=…} in URLs and {@code Authorization: Bearer …}.
 *
 * <p>The key's name, ignoring case and {@code _ - .}, must end with one of {@link #KEYWORDS}
 * ({@code spring.datasource.password}, {@code GITHUB_TOKEN}, {@code x-api-key}), which keeps out
 * {@code max_tokens}, {@code secretary} and {@code password_hash}. Like gitleaks' generic rule, the value must
 * then pass every test in {@link #isSecretValue}: at least 8 characters, high entropy for its length,
 * a digit or symbol (so {@code settings.OPENAI_API_KEY} or a passphrase of plain words is not reported),
 * not only digits (counts and ids), no spaces (prose), and not a placeholder, a path or a URL.
 * The finding is the value alone.
 */
final class SecretAssignmentRule extends BaseRule {

    static final String[] KEYWORDS = {
            "password", "passwd", "pwd", "passphrase", "secret", "apikey", "accesskey", "secretkey", "privatekey",
            "signingkey", "encryptionkey", "token", "credential", "credentials", "authorization"};
    private static final int MAX_KEY = 64;
    private static final int MIN_VALUE = 8;
    private static final int MAX_VALUE = 256;
    private static final CharClass KEY_CHARS = CharClass.of("A-Za-z0-9_.-");
    /** The last two letters of the {@link #KEYWORDS}, lower case. */
    private static final String[] KEYWORD_ENDINGS = {"rd", "wd", "se", "et", "ey", "en", "al", "ls", "on"};
    private static final CharClass KEY_QUOTES = CharClass.of("\"'`\\\\");
    private static final CharClass QUOTES = CharClass.of("\"'`");
    private static final CharClass UNQUOTED_END = CharClass.of(" \t\r\n,;\"'`<>(){}[]&|\\\\");
    private static final CharClass PLAIN_WORDS = CharClass.of("A-Za-z_.-");
    private static final String[] SCHEMES = {"Bearer ", "Basic ", "Token ", "bearer ", "token "};
    private static final Trigger TRIGGER = new Trigger(4 + 1 + MIN_VALUE, 0, 0, 0, TextTraits.COLON | TextTraits.EQUALS);

    SecretAssignmentRule() {
        super("generic-secret-assignment", Finding.Kind.SECRET, TRIGGER);
    }

    @Override
    public Findings findAll(String text, Findings found) {
        int nextEquals = text.indexOf('=');
        int nextColon = text.indexOf(':');
        while (nextEquals >= 0 || nextColon >= 0) {
            int separator = nextColon < 0 || (nextEquals >= 0 && nextEquals < nextColon) ? nextEquals : nextColon;
            int resumeAt = separator + 1;
            if (keyEndsWithKeyword(text, separator)) {
                int start = valueStart(text, separator);
                boolean quoted = start - 1 > separator && QUOTES.contains(text.charAt(start - 1));
                int end = valueEnd(text, start, quoted);
                int length = end - start;
                if (length >= MIN_VALUE && length <= MAX_VALUE && isSecretValue(text.substring(start, end), quoted)) {
                    found = Findings.add(found, finding(start, end));
                }
                resumeAt = Math.max(resumeAt, Math.max(start, end));
            }
            if (nextEquals >= 0 && nextEquals < resumeAt) {
                nextEquals = text.indexOf('=', resumeAt);
            }
            if (nextColon >= 0 && nextColon < resumeAt) {
                nextColon = text.indexOf(':', resumeAt);
            }
        }
        return found;
    }

    /** Whether the name before the separator at {@code separator} (past quotes and spaces) ends with a keyword. */
    private static boolean keyEndsWithKeyword(String text, int separator) {
        int keyEnd = separator;
        if (text.charAt(separator) == '=' && separator > 0) {
            char before = text.charAt(separator - 1);
            if (before == '=' || before == '!' || before == '<' || before == '>') {
                return false; // comparisons; the first '=' of '==' was already looked at
            }
            if (before == ':' || before == '?') {
                keyEnd--; // := and ?=
            }
        }
        int skipped = 0;
        while (keyEnd > 0 && skipped < 4 && (text.charAt(keyEnd - 1) == ' ' || text.charAt(keyEnd - 1) == '\t'
                || KEY_QUOTES.contains(text.charAt(keyEnd - 1)))) {
            keyEnd--;
            skipped++;
        }
        if (!mayEndWithKeyword(text, keyEnd)) {
            return false; // most names (id, status, amount, 10:30) fail here, before any keyword is compared
        }
        int keyStart = KEY_CHARS.runStart(text, keyEnd, keyEnd - MAX_KEY);
        return keyEnd > keyStart && endsWithKeyword(text, keyStart, keyEnd);
    }

    /** Whether the name ending at {@code keyEnd} ends with the last two letters of a keyword, a test cheap enough for every separator. */
    private static boolean mayEndWithKeyword(String text, int keyEnd) {
        if (keyEnd < 2) {
            return false;
        }
        char last = Character.toLowerCase(text.charAt(keyEnd - 1));
        char before = Character.toLowerCase(text.charAt(keyEnd - 2));
        for (String ending : KEYWORD_ENDINGS) {
            if (ending.charAt(1) == last && ending.charAt(0) == before) {
                return true;
            }
        }
        return false;
    }

    private static boolean endsWithKeyword(String text, int keyStart, int keyEnd) {
        for (String keyword : KEYWORDS) {
            int k = keyword.length();
            int i = keyEnd;
            while (k > 0 && i > keyStart) {
                char c = text.charAt(--i);
                if (c == '_' || c == '-' || c == '.') {
                    continue;
                }
                if (Character.toLowerCase(c) != keyword.charAt(k - 1)) {
                    break;
                }
                k--;
            }
            if (k == 0) {
                return true;
            }
        }
        return false;
    }

    /** Where the value after the separator starts: past spaces, an auth scheme and an opening (escaped) quote. */
    private static int valueStart(String text, int separator) {
        int i = separator + 1;
        if (i < text.length() && (text.charAt(i) == '>' || (text.charAt(separator) == ':' && text.charAt(i) == '='))) {
            i++; // => and :=
        }
        while (i < text.length() && i - separator < 12 && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
            i++;
        }
        for (String scheme : SCHEMES) {
            if (text.startsWith(scheme, i)) {
                i += scheme.length();
                break;
            }
        }
        if (i < text.length() - 1 && text.charAt(i) == '\\' && QUOTES.contains(text.charAt(i + 1))) {
            i++; // an escaped quote, as in JSON inside a CSV cell or a string
        }
        return i < text.length() && QUOTES.contains(text.charAt(i)) ? i + 1 : i;
    }

    /** Where the value starting at {@code start} ends; -1 for a quote that does not close. */
    private static int valueEnd(String text, int start, boolean quoted) {
        if (quoted) {
            return quotedEnd(text, start, text.charAt(start - 1));
        }
        int end = UNQUOTED_END.nextMember(text, start, start + MAX_VALUE + 1);
        // "is a-very-secret-value." ends a sentence, not the value
        while (end > start && (text.charAt(end - 1) == '.' || text.charAt(end - 1) == ':')) {
            end--;
        }
        return end;
    }

    /** The index of the closing quote (or of the backslash escaping it), or -1 within the bound. */
    private static int quotedEnd(String text, int start, char quote) {
        int limit = Math.min(text.length(), start + MAX_VALUE + 1);
        for (int i = start; i < limit; i++) {
            char c = text.charAt(i);
            if (c == quote || c == '\n' || c == '\\') {
                return c == '\n' ? -1 : i;
            }
        }
        return -1;
    }

    static boolean isSecretValue(String value, boolean quoted) {
        if (PLAIN_WORDS.all(value, 0, value.length()) || CharClass.DIGITS.all(value, 0, value.length())
                || value.indexOf(' ') >= 0 || value.indexOf('\t') >= 0 || value.contains("://")
                || Placeholders.isPlaceholder(value) || looksLikePath(value) || (!quoted && looksLikeCall(value))) {
            return false;
        }
        return Randomness.looksLikeSecretValue(value);
    }

    private static boolean looksLikePath(String value) {
        return value.startsWith("/") || value.startsWith("~") || value.startsWith("./") || value.startsWith("../")
                || (value.length() > 2 && value.charAt(1) == ':' && value.charAt(2) == '\\');
    }

    /** {@code os.environ.get} and other expressions in code are names, not values. */
    private static boolean looksLikeCall(String value) {
        return value.endsWith("()") || value.startsWith("os.") || value.startsWith("process.env")
                || value.startsWith("env.") || value.startsWith("self.") || value.startsWith("this.");
    }
}
