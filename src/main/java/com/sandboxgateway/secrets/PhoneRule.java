package com.sandboxgateway.secrets;

/**
 * Phone numbers in the shapes people write them, never bare digit strings (which are far more often
 * ids, amounts or timestamps):
 * <ul>
 *   <li>international: {@code +} and a country code, then 8 to 15 digits in all (E.164), in any grouping,
 *       e.g. {@code +44 20 7946 0958}, {@code +1 (415) 555-2671}, {@code +33 (0)1 42 68 53 00}, {@code +4915112345678};</li>
 *   <li>North American: {@code (415) 555-2671}, {@code 415-555-2671}, {@code 415.555.2671}, {@code 1-800-555-0199}
 *       (area code and exchange start with 2–9, as the NANP requires);</li>
 *   <li>European national, with a trunk {@code 0}: {@code 020 7946 0958}, {@code 06 12 34 56 78},
 *       {@code 06-12345678}, {@code 0151 2345 6789}: 10 to 12 digits in at least two groups, all
 *       separated alike (so {@code 01.01.2024 12:30} is a date and a time).</li>
 * </ul>
 * Dates ({@code 2024-01-15}, {@code 01.02.2024}), times, decimals, IP addresses, version numbers and
 * grouped amounts do not fit these shapes.
 */
final class PhoneRule extends BaseRule {

    private static final int MAX_GROUPS = 8;
    private static final CharClass GLUE = CharClass.of("A-Za-z0-9_+");
    static final CharClass SEPARATORS = CharClass.of(" .-");
    /**
     * North American and European numbers have at least 10 digits; only an international one, which
     * starts with {@code +}, may have 8 (so ids and dates of 8 digits do not run this rule).
     */
    private static final Trigger NATIONAL = new Trigger(10, 10, 0, 0, 0);
    private static final Trigger INTERNATIONAL = new Trigger(9, 8, 0, TextTraits.PLUS, 0);

    PhoneRule() {
        super("phone", Finding.Kind.PII, NATIONAL, INTERNATIONAL);
    }

    @Override
    public Findings findAll(String text, Findings found) {
        PhoneDigitGroups groups = null;
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c > '9' || (c < '0' && c != '+' && c != '(') || !startsNumber(text, i) || !canStartPhone(text, i)) {
                continue;
            }
            if (groups == null) {
                groups = new PhoneDigitGroups(MAX_GROUPS);
            }
            groups.read(text, i);
            int end = phoneEnd(text, groups);
            if (end > 0) {
                found = Findings.add(found, finding(i, end));
            }
            i = Math.max(i, (end > 0 ? end : groups.end(groups.count() - 1)) - 1);
        }
        return found;
    }

    /** The end of the longest phone number made of the first groups, or -1. */
    private static int phoneEnd(String text, PhoneDigitGroups groups) {
        for (int k = groups.count(); k >= 1; k--) {
            int end = groups.end(k - 1);
            boolean followedByMore = GLUE.at(text, end)
                    || (end + 1 < text.length() && (text.charAt(end) == '.' || text.charAt(end) == '-') && isDigit(text.charAt(end + 1)));
            if (!followedByMore && (international(groups, k) || northAmerican(groups, k) || europeanNational(groups, k))) {
                return end;
            }
        }
        return -1;
    }

    private static boolean international(PhoneDigitGroups groups, int k) {
        int digits = groups.digits(k) - (groups.hasTrunkZero() ? 1 : 0);
        return groups.plus() && groups.firstDigit(0) != '0' && digits >= 8 && digits <= 15;
    }

    private static boolean northAmerican(PhoneDigitGroups groups, int k) {
        if (groups.plus() && !(groups.size(0) == 1 && groups.firstDigit(0) == '1')) {
            return false;
        }
        int first = k == 4 && groups.size(0) == 1 && groups.firstDigit(0) == '1' ? 1 : 0;
        return k - first == 3
                && groups.size(first) == 3 && groups.size(first + 1) == 3 && groups.size(first + 2) == 4
                && !groups.parenthesized(first + 1) && !groups.parenthesized(first + 2)
                && groups.firstDigit(first) >= '2' && groups.firstDigit(first + 1) >= '2';
    }

    private static boolean europeanNational(PhoneDigitGroups groups, int k) {
        if (groups.plus() || k < 2 || groups.firstDigit(0) != '0' || groups.size(0) < 2 || groups.size(0) > 5
                || groups.digitAt(0, 1) == '0') {
            return false;
        }
        int digits = groups.digits(k);
        boolean shortGroups = true;
        for (int g = 1; g < k; g++) {
            shortGroups &= groups.size(g) >= 2 && groups.size(g) <= 4 && !groups.parenthesized(g);
        }
        boolean oneLongGroup = k == 2 && groups.size(1) >= 6 && groups.size(1) <= 8;
        return digits >= 10 && digits <= 12 && (shortGroups || oneLongGroup) && groups.sameSeparator(k);
    }

    /**
     * Whether a phone number of one of the three shapes could start at {@code i}: {@code +} or {@code (}
     * before a digit, a trunk {@code 0} opening a group of 2 to 5 digits, a three-digit area code, or the
     * {@code 1} of {@code 1-800-…}. Dates, amounts and ids fail here, before any work is done.
     */
    private static boolean canStartPhone(String text, int i) {
        char c = text.charAt(i);
        if (c == '+' || c == '(') {
            return i + 1 < text.length() && isDigit(text.charAt(i + 1));
        }
        if (!isDigit(c)) {
            return false;
        }
        int run = CharClass.DIGITS.runEnd(text, i, i + 6) - i;
        if (c == '0') {
            return run >= 2 && run <= 5 && text.charAt(i + 1) != '0';
        }
        return run == 3 || (run == 1 && c == '1');
    }

    /** Not inside a word or a longer number: {@code 12.415-555-2671} and {@code ID415-555-2671} are not phones. */
    private static boolean startsNumber(String text, int i) {
        if (i == 0) {
            return true;
        }
        char before = text.charAt(i - 1);
        if (GLUE.contains(before)) {
            return false;
        }
        boolean joiner = before == '.' || before == '-' || before == '/' || before == ':';
        return !(joiner && i >= 2 && isDigit(text.charAt(i - 2)));
    }

    static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
