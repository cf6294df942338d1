package com.sandboxgateway.secrets;

/**
 * Payment card numbers (PANs): 13 to 19 digits, written solid or in groups separated by single spaces
 * or dashes (the first group of four, as printed on cards: 4-4-4-4, Amex 4-6-5), that pass the Luhn
 * check and start with an issuer prefix of a network that issues that length ({@link CardNetwork}).
 * Digits after a decimal point ({@code 0.4532015112830366}) or glued to letters are not card numbers.
 */
final class PaymentCardRule extends BaseRule {

    private static final int MIN_DIGITS = 13;
    private static final int MAX_DIGITS = 19;
    private static final int MAX_GROUPS = 8;
    private static final CharClass GLUE = CharClass.of("A-Za-z0-9_");
    private static final Trigger TRIGGER = new Trigger(MIN_DIGITS, MIN_DIGITS, 0, 0, 0);

    PaymentCardRule() {
        super("payment-card", Finding.Kind.PII, TRIGGER);
    }

    @Override
    public Findings findAll(String text, Findings found) {
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c < '2' || c > '6' || !startsNumber(text, i)) {
                continue; // every network's prefixes start with 2 to 6
            }
            long card = longestCard(text, i);
            int end = (int) card;
            if (end > 0) {
                found = Findings.add(found, finding(i, end));
            }
            i = Math.max(i, (int) (card >>> 32) - 1);
        }
        return found;
    }

    /**
     * Reads digit groups from {@code start}, each ending a candidate of the groups so far, and returns
     * the end of the longest candidate that is a card number (or -1) in the low 32 bits and where the
     * groups end in the high 32 bits, so the caller can skip them, all without allocating.
     */
    private static long longestCard(String text, int start) {
        int best = -1;
        int digits = 0;
        int groups = 0;
        int i = start;
        char separator = 0;
        boolean fourDigitFirstGroup = false;
        while (true) {
            int groupStart = i;
            while (i < text.length() && isDigit(text.charAt(i)) && digits <= MAX_DIGITS) {
                i++;
                digits++;
            }
            groups++;
            fourDigitFirstGroup |= groups == 1 && i - groupStart == 4;
            if (digits > MAX_DIGITS) {
                break;
            }
            boolean more = groups < MAX_GROUPS && i + 1 < text.length() && isDigit(text.charAt(i + 1))
                    && (separator == 0 ? text.charAt(i) == ' ' || text.charAt(i) == '-' : text.charAt(i) == separator);
            boolean wellGrouped = groups == 1 || fourDigitFirstGroup;
            boolean standsAlone = more || !(GLUE.at(text, i) || continuesAsDecimal(text, i));
            if (digits >= MIN_DIGITS && wellGrouped && standsAlone && isCardNumber(text, start, i, digits)) {
                best = i;
            }
            if (!more) {
                break;
            }
            separator = text.charAt(i);
            i++;
        }
        return (long) i << 32 | (best & 0xFFFFFFFFL);
    }

    private static boolean isCardNumber(String text, int start, int end, int digits) {
        return passesLuhn(text, start, end) && CardNetwork.issues(leadingDigits(text, start), digits);
    }

    /** Not inside a word, a longer number or the fraction of a decimal. */
    private static boolean startsNumber(String text, int i) {
        if (i == 0) {
            return true;
        }
        char before = text.charAt(i - 1);
        if (GLUE.contains(before) || before == '+') {
            return false; // a leading + makes it a phone number
        }
        boolean joiner = before == '.' || before == '-';
        return !(joiner && i >= 2 && isDigit(text.charAt(i - 2)));
    }

    private static boolean continuesAsDecimal(String text, int end) {
        return end + 1 < text.length() && (text.charAt(end) == '.' || text.charAt(end) == ',') && isDigit(text.charAt(end + 1));
    }

    static boolean passesLuhn(CharSequence text, int start, int end) {
        int sum = 0;
        boolean doubled = false;
        for (int i = end - 1; i >= start; i--) {
            char c = text.charAt(i);
            if (!isDigit(c)) {
                continue;
            }
            int d = c - '0';
            if (doubled) {
                d *= 2;
                if (d > 9) {
                    d -= 9;
                }
            }
            sum += d;
            doubled = !doubled;
        }
        return sum % 10 == 0;
    }

    /** The first six digits as a number, the issuer identification number the networks are told apart by. */
    private static int leadingDigits(String text, int start) {
        int value = 0;
        int count = 0;
        for (int i = start; count < 6; i++) {
            char c = text.charAt(i);
            if (isDigit(c)) {
                value = value * 10 + (c - '0');
                count++;
            }
        }
        return value;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
