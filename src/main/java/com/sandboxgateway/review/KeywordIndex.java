package com.sandboxgateway.review;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Which injection rules a text could match, found in one pass over its characters: an Aho–Corasick
 * automaton over every rule's keywords, read through {@link FoldedText} folding (so {@code ＩＧＮＯＲＥ},
 * {@code ig\u200Bnore} and {@code IGNORE} all hit {@code ignore}) with runs of spaces read as one. A text
 * without any keyword, which is nearly every cell of a data file, costs one table look-up per character
 * and allocates nothing.
 */
final class KeywordIndex {

    private static final int ROOT = 0;

    /** Keyword characters (folded ASCII) to alphabet classes; class 0 is every other character. */
    private final byte[] classOf = new byte[128];
    /** Every character to the class of its folded form, or {@link #SPACE} or {@link #SKIPPED}: one look-up per character. */
    private final byte[] classOfChar = new byte[0x10000];
    private static final byte SPACE = -1;
    private static final byte SKIPPED = -2;
    private final int classes;
    /** The full transition table, {@code states × classes}. */
    private final int[] next;
    /** The rules whose keywords end in each state (failure chain included), or {@code null}. */
    private final int[][] rulesEndingAt;
    private final int shortestKeyword;
    private final int ruleCount;

    /** @param keywordsByRule each rule's keywords, already folded with {@link FoldedText#foldEach} */
    KeywordIndex(List<List<String>> keywordsByRule) {
        this.ruleCount = keywordsByRule.size();
        int classCount = 1;
        int shortest = Integer.MAX_VALUE;
        for (List<String> keywords : keywordsByRule) {
            for (String keyword : keywords) {
                shortest = Math.min(shortest, keyword.length());
                for (char c : keyword.toCharArray()) {
                    if (c >= 128) {
                        throw new IllegalArgumentException("keyword '" + keyword + "' holds '" + c
                                + "', which folds to no ASCII character; keywords must be ASCII once folded");
                    }
                    if (classOf[c] == 0) {
                        classOf[c] = (byte) classCount++;
                    }
                }
            }
        }
        if (classCount > Byte.MAX_VALUE) {
            throw new IllegalArgumentException("keywords use " + classCount + " distinct characters; at most 126 are supported");
        }
        this.classes = classCount;
        for (int c = 0; c < classOfChar.length; c++) {
            char folded = FoldedText.fold((char) c);
            classOfChar[c] = folded == ' ' || folded == '\n' ? SPACE : folded == FoldedText.SKIP ? SKIPPED
                    : folded < 128 ? classOf[folded] : 0;
        }
        this.shortestKeyword = shortest == Integer.MAX_VALUE ? 0 : shortest;
        Trie trie = new Trie(classes);
        for (int rule = 0; rule < keywordsByRule.size(); rule++) {
            for (String keyword : keywordsByRule.get(rule)) {
                trie.add(keyword, classOf, rule);
            }
        }
        this.next = trie.transitions();
        this.rulesEndingAt = trie.outputs();
    }

    /** Texts shorter than this hold no keyword; the detector skips them before reading a character. */
    int shortestKeyword() {
        return shortestKeyword;
    }

    /**
     * The rules with a keyword in {@code text}, as a bit set indexed by rule, or {@code null} when none
     * has (then nothing was allocated).
     */
    long[] candidates(CharSequence text) {
        long[] hits = null;
        int state = ROOT;
        boolean afterSpace = true;
        for (int i = 0, n = text.length(); i < n; i++) {
            int cls = classOfChar[text.charAt(i)];
            if (cls == SPACE) {
                if (afterSpace) {
                    continue;
                }
                afterSpace = true;
                cls = classOf[' '];
            } else if (cls == SKIPPED) {
                continue;
            } else {
                afterSpace = false;
            }
            state = next[state * classes + cls];
            int[] rules = rulesEndingAt[state];
            if (rules != null) {
                if (hits == null) {
                    hits = new long[(ruleCount + 63) >>> 6];
                }
                for (int rule : rules) {
                    hits[rule >>> 6] |= 1L << rule;
                }
            }
        }
        return hits;
    }

    /** A growing trie that becomes the automaton's tables. */
    private static final class Trie {
        private final int classes;
        private final List<int[]> children = new ArrayList<>();
        private final List<int[]> outputs = new ArrayList<>();

        Trie(int classes) {
            this.classes = classes;
            addState();
        }

        private int addState() {
            int[] row = new int[classes];
            Arrays.fill(row, -1);
            children.add(row);
            outputs.add(null);
            return children.size() - 1;
        }

        void add(String keyword, byte[] classOf, int rule) {
            int state = ROOT;
            for (char c : keyword.toCharArray()) {
                int cls = classOf[c];
                if (children.get(state)[cls] < 0) {
                    int child = addState();
                    children.get(state)[cls] = child;
                }
                state = children.get(state)[cls];
            }
            outputs.set(state, union(outputs.get(state), new int[] {rule}));
        }

        /** Breadth first, each missing edge is filled from the failure state, making a complete DFA. */
        int[] transitions() {
            int[] table = new int[children.size() * classes];
            int[] failure = new int[children.size()];
            ArrayDeque<Integer> queue = new ArrayDeque<>();
            for (int cls = 0; cls < classes; cls++) {
                int child = children.get(ROOT)[cls];
                table[cls] = child < 0 ? ROOT : child;
                if (child > 0) {
                    queue.add(child);
                }
            }
            while (!queue.isEmpty()) {
                int state = queue.poll();
                outputs.set(state, union(outputs.get(state), outputs.get(failure[state])));
                for (int cls = 0; cls < classes; cls++) {
                    int child = children.get(state)[cls];
                    int fallback = table[failure[state] * classes + cls];
                    if (child < 0) {
                        table[state * classes + cls] = fallback;
                    } else {
                        table[state * classes + cls] = child;
                        failure[child] = fallback;
                        queue.add(child);
                    }
                }
            }
            return table;
        }

        int[][] outputs() {
            return outputs.toArray(int[][]::new);
        }

        private static int[] union(int[] a, int[] b) {
            if (a == null) {
                return b;
            }
            if (b == null) {
                return a;
            }
            return java.util.stream.IntStream.concat(Arrays.stream(a), Arrays.stream(b)).distinct().toArray();
        }
    }
}
