package com.sandboxgateway.secrets;

/**
 * Passwords in URLs, {@code scheme://user:password@host} (RFC 3986 userinfo): database URLs
 * ({@code postgres://}, {@code mongodb+srv://}, {@code redis://:pw@host}), broker and proxy URLs, and
 * JDBC URLs of the same shape. The finding is the password alone. Placeholders such as
 * {@code user:password@}, {@code ${DB_PASSWORD}} or {@code ****} are not findings.
 */
final class UrlPasswordRule extends BaseRule {

    private static final int MAX_AUTHORITY = 512;
    /**
     * Ends the authority part. {@code #} does not: passwords hold it unescaped more often than URLs put
     * an {@code @} in their fragment.
     */
    private static final CharClass AUTHORITY_END = CharClass.of(" \t\r\n/?\"'<>`\\\\");
    private static final CharClass SCHEME = CharClass.of("A-Za-z0-9+.-");
    private static final CharClass HOST_START = CharClass.of("A-Za-z0-9[");
    private static final Trigger TRIGGER = Trigger.atLeast(12, TextTraits.COLON | TextTraits.SLASH | TextTraits.AT);

    UrlPasswordRule() {
        super("url-password", Finding.Kind.SECRET, TRIGGER);
    }

    @Override
    public Findings findAll(String text, Findings found) {
        for (int separator = text.indexOf("://"); separator >= 0; ) {
            int authority = separator + 3;
            int authorityEnd = AUTHORITY_END.nextMember(text, authority, authority + MAX_AUTHORITY);
            int at = lastAt(text, authority, authorityEnd);
            if (at >= authority && hasScheme(text, separator) && HOST_START.at(text, at + 1)) {
                int colon = text.indexOf(':', authority, at);
                if (colon >= 0 && colon + 1 < at && !Placeholders.isPlaceholder(text.substring(colon + 1, at))) {
                    found = Findings.add(found, finding(colon + 1, at));
                }
            }
            separator = text.indexOf("://", Math.max(separator + 3, authorityEnd));
        }
        return found;
    }

    private static boolean hasScheme(String text, int separator) {
        int start = SCHEME.runStart(text, separator, separator - 32);
        return separator - start >= 2 && Character.isLetter(text.charAt(start));
    }

    /** The last {@code @} in {@code [from, to)}, or -1; bounded, unlike {@link String#lastIndexOf(int, int)}. */
    private static int lastAt(String text, int from, int to) {
        for (int i = to - 1; i >= from; i--) {
            if (text.charAt(i) == '@') {
                return i;
            }
        }
        return -1;
    }
}
