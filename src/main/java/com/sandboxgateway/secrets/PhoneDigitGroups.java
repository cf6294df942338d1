package com.sandboxgateway.secrets;

/**
 * The digit groups of one phone number candidate, such as {@code +44}, {@code (0)}, {@code 20},
 * {@code 7946}, {@code 0958}: where each starts and ends, whether it is in parentheses and which
 * separator precedes it. One instance is reused across the candidates of a scan.
 */
final class PhoneDigitGroups {

    private final int[] starts;
    private final int[] ends;
    private final boolean[] parens;
    private final char[] separators;
    private String text;
    private int count;
    private boolean plus;

    PhoneDigitGroups(int max) {
        starts = new int[max];
        ends = new int[max];
        parens = new boolean[max];
        separators = new char[max];
    }

    /** Reads {@code +}, then groups of digits, each in parentheses or not, separated by one of {@code " .-"}. */
    void read(String text, int from) {
        this.text = text;
        count = 0;
        int i = from;
        plus = text.charAt(i) == '+';
        if (plus) {
            i++;
        }
        int digits = 0;
        char separator = 0;
        while (count < starts.length && i < text.length()) {
            boolean paren = text.charAt(i) == '(';
            int groupStart = paren ? i + 1 : i;
            int groupEnd = groupStart;
            while (groupEnd < text.length() && PhoneRule.isDigit(text.charAt(groupEnd)) && groupEnd - groupStart < 15) {
                groupEnd++;
            }
            if (groupEnd == groupStart || (paren && (groupEnd >= text.length() || text.charAt(groupEnd) != ')'))) {
                break;
            }
            starts[count] = groupStart;
            ends[count] = paren ? groupEnd + 1 : groupEnd;
            parens[count] = paren;
            separators[count] = separator;
            count++;
            digits += groupEnd - groupStart;
            i = ends[count - 1];
            if (digits > 15 || i + 1 >= text.length()) {
                break;
            }
            char next = text.charAt(i);
            if (next == '(' || (paren && PhoneRule.isDigit(next))) {
                separator = 0;
                continue;
            }
            boolean separated = PhoneRule.SEPARATORS.contains(next) && (PhoneRule.isDigit(text.charAt(i + 1)) || text.charAt(i + 1) == '(');
            if (!separated) {
                break;
            }
            separator = next;
            i++;
        }
        if (count == 0) {
            starts[0] = from;
            ends[0] = from + 1;
            parens[0] = false;
            count = 1;
        }
    }

    int count() {
        return count;
    }

    boolean plus() {
        return plus;
    }

    int end(int group) {
        return ends[group];
    }

    int size(int group) {
        return (parens[group] ? ends[group] - 1 : ends[group]) - starts[group];
    }

    boolean parenthesized(int group) {
        return parens[group];
    }

    char firstDigit(int group) {
        return text.charAt(starts[group]);
    }

    char digitAt(int group, int index) {
        return text.charAt(starts[group] + index);
    }

    int digits(int groups) {
        int digits = 0;
        for (int g = 0; g < groups; g++) {
            digits += size(g);
        }
        return digits;
    }

    /** Whether the first {@code groups} groups are all separated by the same character. */
    boolean sameSeparator(int groups) {
        for (int g = 2; g < groups; g++) {
            if (separators[g] != separators[1]) {
                return false;
            }
        }
        return true;
    }

    /** The {@code (0)} of {@code +44 (0)20 …}, which is dialled only from inside the country. */
    boolean hasTrunkZero() {
        for (int g = 0; g < count; g++) {
            if (parens[g] && size(g) == 1 && firstDigit(g) == '0') {
                return true;
            }
        }
        return false;
    }
}
