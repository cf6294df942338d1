package com.sandboxgateway.secrets;

/**
 * Passwords in JDBC URLs given as properties: {@code jdbc:mysql://db/app?user=app&password=…},
 * {@code jdbc:sqlserver://db;user=sa;password=…;}, {@code jdbc:postgresql://db/app?password=…}
 * ({@code password}, {@code pwd} or {@code passwd}, any case), and Oracle's thin form
 * {@code jdbc:oracle:thin:scott/tiger@db}. The finding is the password alone. JDBC URLs with
 * {@code user:password@} userinfo are {@code url-password} findings.
 */
final class JdbcPasswordRule extends BaseRule {

    private static final int MAX_URL = 2048;
    private static final CharClass URL_END = CharClass.of(" \t\r\n\"'<>`");
    private static final CharClass VALUE_END = CharClass.of(" \t\r\n\"'<>`;&),");
    private static final CharClass KEY = CharClass.of("A-Za-z");
    private static final String ORACLE_THIN = "jdbc:oracle:thin:";
    private static final Trigger TRIGGER = Trigger.atLeast(15, TextTraits.COLON | TextTraits.LOWER);

    JdbcPasswordRule() {
        super("jdbc-password", Finding.Kind.SECRET, TRIGGER);
    }

    @Override
    public Findings findAll(String text, Findings found) {
        for (int url = text.indexOf("jdbc:"); url >= 0; ) {
            int urlEnd = URL_END.nextMember(text, url, url + MAX_URL);
            found = findProperties(text, url, urlEnd, found);
            if (text.startsWith(ORACLE_THIN, url)) {
                found = findOracleThin(text, url + ORACLE_THIN.length(), urlEnd, found);
            }
            url = text.indexOf("jdbc:", Math.max(url + 5, urlEnd));
        }
        return found;
    }

    private Findings findProperties(String text, int url, int urlEnd, Findings found) {
        for (int equals = text.indexOf('=', url, urlEnd); equals >= 0; equals = text.indexOf('=', equals + 1, urlEnd)) {
            int keyStart = KEY.runStart(text, equals, equals - 8);
            String key = text.substring(keyStart, equals);
            boolean passwordKey = key.equalsIgnoreCase("password") || key.equalsIgnoreCase("pwd") || key.equalsIgnoreCase("passwd");
            if (passwordKey && !KEY.at(text, keyStart - 1)) {
                int valueEnd = VALUE_END.nextMember(text, equals + 1, urlEnd);
                found = report(text, equals + 1, valueEnd, found);
            }
        }
        return found;
    }

    /** {@code user/password@host}: the password runs from the first slash to the last {@code @} before any further slash. */
    private Findings findOracleThin(String text, int from, int urlEnd, Findings found) {
        int slash = text.indexOf('/', from, urlEnd);
        if (slash < 0 || slash == from || text.charAt(from) == '@') {
            return found;
        }
        int nextSlash = text.indexOf('/', slash + 1, urlEnd);
        int at = lastAt(text, slash + 1, nextSlash < 0 ? urlEnd : nextSlash);
        return at > slash + 1 ? report(text, slash + 1, at, found) : found;
    }

    private Findings report(String text, int start, int end, Findings found) {
        boolean secret = end > start && !Placeholders.isPlaceholder(text.substring(start, end));
        return secret ? Findings.add(found, finding(start, end)) : found;
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
