package com.sandboxgateway.secrets;

/**
 * A set of ASCII characters held as two 64-bit masks, so membership costs two shifts. Rules use it to
 * measure token runs and to check that a match is not glued to a longer word on either side.
 */
final class CharClass {

    static final CharClass DIGITS = of("0-9");
    static final CharClass ALNUM = of("A-Za-z0-9");
    static final CharClass WORD = of("A-Za-z0-9_");
    static final CharClass BASE64URL = of("A-Za-z0-9_-");
    static final CharClass BASE64 = of("A-Za-z0-9+/");

    private final long low;
    private final long high;

    private CharClass(long low, long high) {
        this.low = low;
        this.high = high;
    }

    /** Characters and {@code a-z} style ranges; a {@code -} at the end stands for itself. */
    static CharClass of(String spec) {
        long low = 0;
        long high = 0;
        for (int i = 0; i < spec.length(); i++) {
            char from = spec.charAt(i);
            char to = from;
            if (i + 2 < spec.length() && spec.charAt(i + 1) == '-') {
                to = spec.charAt(i + 2);
                i += 2;
            }
            for (char c = from; c <= to; c++) {
                if (c >= 128) {
                    throw new IllegalArgumentException("only ASCII characters: " + spec);
                }
                if (c < 64) {
                    low |= 1L << c;
                } else {
                    high |= 1L << (c - 64);
                }
            }
        }
        return new CharClass(low, high);
    }

    boolean contains(char c) {
        return c < 64 ? (low >>> c & 1) != 0 : c < 128 && (high >>> (c - 64) & 1) != 0;
    }

    /** Whether {@code text} has a member at {@code index}; false outside the text. */
    boolean at(String text, int index) {
        return index >= 0 && index < text.length() && contains(text.charAt(index));
    }

    /** The first index at or after {@code from} (and before {@code limit}) that is not a member, else {@code limit}. */
    int runEnd(String text, int from, int limit) {
        int end = Math.min(limit, text.length());
        int i = from;
        while (i < end && contains(text.charAt(i))) {
            i++;
        }
        return i;
    }

    /** The first index at or after {@code from} (and before {@code limit}) that is a member, else {@code limit}. */
    int nextMember(String text, int from, int limit) {
        int end = Math.min(limit, text.length());
        int i = from;
        while (i < end && !contains(text.charAt(i))) {
            i++;
        }
        return i;
    }

    /** The start of the run of members that ends just before {@code to}, looking back no further than {@code limit}. */
    int runStart(String text, int to, int limit) {
        int i = to;
        int stop = Math.max(0, limit);
        while (i > stop && contains(text.charAt(i - 1))) {
            i--;
        }
        return i;
    }

    /**
     * Whether a run of members can start at {@code index}: the character before is not a member, or is
     * the letter of a {@code \n}, {@code \r} or {@code \t} escape, as in JSON strings and CSV cells
     * that hold a multi-line text on one line.
     */
    boolean startsAt(String text, int index) {
        if (index == 0 || !contains(text.charAt(index - 1))) {
            return true;
        }
        char before = text.charAt(index - 1);
        return index >= 2 && text.charAt(index - 2) == '\\' && (before == 'n' || before == 'r' || before == 't');
    }

    /** Whether every character in {@code [from, to)} is a member. */
    boolean all(String text, int from, int to) {
        return runEnd(text, from, to) == to;
    }
}
