package com.sandboxgateway.secrets;

/**
 * What a text is made of, computed in one pass so that rules can be skipped without running: which
 * kinds of characters it contains, how many digits, and its longest run of token characters
 * ({@code A-Za-z0-9_+/=-}). Prose, names, amounts and dates have no run of 20 such characters, so a
 * line of them skips every vendor-token rule. The result is packed into one {@code long} (flags in bits
 * 0–15, digits in 16–31, longest run in 32–47, counts capped at 65535) rather than an object because the
 * CSV sanitizer asks for it once per cell, millions of times, and must not allocate.
 */
final class TextTraits {

    static final int DIGIT = 1;
    static final int UPPER = 1 << 1;
    static final int LOWER = 1 << 2;
    static final int AT = 1 << 3;
    static final int COLON = 1 << 4;
    static final int EQUALS = 1 << 5;
    static final int DASH = 1 << 6;
    static final int UNDERSCORE = 1 << 7;
    static final int DOT = 1 << 8;
    static final int SLASH = 1 << 9;
    static final int PLUS = 1 << 10;
    /** A token character; set for the text when it has any. */
    private static final int TOKEN_BIT = 11;
    private static final int TOKEN = 1 << TOKEN_BIT;

    private static final int ALL = (1 << 12) - 1;
    /** How many values {@link #flags} can take. */
    static final int FLAG_COMBINATIONS = ALL + 1;
    private static final int CAP = 0xFFFF;
    /** Runs longer than this are not told apart: once a text has one, every kind and 19 digits, counting stops. */
    static final int LONGEST_RUN_MEASURED = 64;
    /** No rule asks for more digits than a 19-digit card number. */
    private static final int ENOUGH_DIGITS = 19;
    private static final int[] ASCII = new int[128];

    static {
        for (char c = '0'; c <= '9'; c++) {
            ASCII[c] = DIGIT | TOKEN;
        }
        for (char c = 'A'; c <= 'Z'; c++) {
            ASCII[c] = UPPER | TOKEN;
            ASCII[c + ('a' - 'A')] = LOWER | TOKEN;
        }
        ASCII['@'] = AT;
        ASCII[':'] = COLON;
        ASCII['='] = EQUALS | TOKEN;
        ASCII['-'] = DASH | TOKEN;
        ASCII['_'] = UNDERSCORE | TOKEN;
        ASCII['.'] = DOT;
        ASCII['/'] = SLASH | TOKEN;
        ASCII['+'] = PLUS | TOKEN;
    }

    private TextTraits() {
    }

    static long of(CharSequence text) {
        int flags = 0;
        int digits = 0;
        int run = 0;
        int longestRun = 0;
        for (int i = 0, n = text.length(); i < n; i++) {
            char c = text.charAt(i);
            int trait = c < 128 ? ASCII[c] : 0;
            flags |= trait;
            digits += trait & DIGIT;
            run = (run + 1) & -(trait >>> TOKEN_BIT & 1); // +1 on a token character, else back to 0, without a branch
            longestRun = Math.max(longestRun, run);
            // Checked now and then only: in short cells, which are most texts, the test would cost more than it saves.
            if ((i & 255) == 255 && flags == ALL && digits >= ENOUGH_DIGITS && longestRun >= LONGEST_RUN_MEASURED) {
                break;
            }
        }
        return (long) Math.min(longestRun, CAP) << 32 | (long) Math.min(digits, CAP) << 16 | flags;
    }

    static int flags(long traits) {
        return (int) traits & CAP;
    }

    static int digits(long traits) {
        return (int) (traits >>> 16) & CAP;
    }

    static int longestRun(long traits) {
        return (int) (traits >>> 32) & CAP;
    }
}
