package com.sandboxgateway.review;

import java.text.Normalizer;

/**
 * The one-character-to-one-character folding that injection rules see: lower case, accents removed
 * ({@code é} → {@code e}), full-width letters as ASCII ({@code ｉ} → {@code i}), Cyrillic and Greek
 * look-alikes as the Latin letter they imitate ({@code о} → {@code o}), every space as a plain space,
 * and zero-width or bidi control characters dropped. Because each character folds on its own, the
 * keyword prefilter can fold while it reads, without building a string; only a text that hits a
 * keyword is {@linkplain #normalize normalized} into one.
 */
final class FoldedText {

    /** What a character that is not part of the visible text folds to: it is skipped. */
    static final char SKIP = '\uFFFF';

    private static final char[] FOLD = buildTable();

    private FoldedText() {
    }

    /** {@code c} folded; {@link #SKIP} for characters to drop, {@code ' '} or {@code '\n'} for spaces. */
    static char fold(char c) {
        return FOLD[c];
    }

    /**
     * {@code text} folded, each run of spaces and tabs as one space, line breaks kept (rules may anchor
     * at line starts) and surrounding spaces removed from each line.
     */
    static String normalize(CharSequence text) {
        StringBuilder folded = new StringBuilder(text.length());
        for (int i = 0, n = text.length(); i < n; i++) {
            char c = FOLD[text.charAt(i)];
            if (c == SKIP) {
                continue;
            }
            int last = folded.length() - 1;
            if (c == ' ' && (last < 0 || folded.charAt(last) == ' ' || folded.charAt(last) == '\n')) {
                continue;
            }
            if (c == '\n' && last >= 0 && folded.charAt(last) == ' ') {
                folded.setLength(last);
            }
            folded.append(c);
        }
        return folded.toString();
    }

    /** {@code text} folded character by character, e.g. a rule's keyword, so it compares with folded text. */
    static String foldEach(String text) {
        StringBuilder folded = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = FOLD[text.charAt(i)];
            if (c != SKIP) {
                folded.append(c == '\n' ? ' ' : c);
            }
        }
        return folded.toString();
    }

    private static char[] buildTable() {
        char[] table = new char[0x10000];
        for (int c = 0; c < table.length; c++) {
            table[c] = Character.toLowerCase((char) c);
        }
        for (int c = 0x80; c < 0x250; c++) {
            table[c] = withoutAccent((char) c);
        }
        for (int c = 0x1E00; c < 0x1F00; c++) {
            table[c] = withoutAccent((char) c);
        }
        table['ß'] = 's';
        for (char quote : "\u2018\u2019\u201A\u201B\u2032\u00B4\u0060".toCharArray()) {
            table[quote] = '\'';
        }
        for (char quote : "\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB".toCharArray()) {
            table[quote] = '"';
        }
        for (int c = 0xFF01; c <= 0xFF5E; c++) {
            table[c] = Character.toLowerCase((char) (c - 0xFEE0));
        }
        lookAlikes(table, "аa еe оo рp сc уy хx іi јj ѕs ԁd һh ӏl ԛq ԝw ѵv ɡg ɑa ıi",
                "Аa Вb Еe Кk Мm Нh Оo Рp Сc Тt Хx Уy Іi Јj Ѕs");
        lookAlikes(table, "οo αa εe ιi κk νv ρp τt υu χx",
                "Αa Βb Εe Ζz Ηh Ιi Κk Μm Νn Οo Ρp Τt Υy Χx");
        for (int c = 0; c < table.length; c++) {
            if (Character.getType(c) == Character.SPACE_SEPARATOR || c == '\t' || c == '\f' || c == 0x0B) {
                table[c] = ' ';
            }
        }
        table['\r'] = '\n';
        table[0x85] = '\n';
        table[0x2028] = '\n';
        table[0x2029] = '\n';
        String invisible = "\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180E\u3164\uFEFF\uFFA0";
        for (int i = 0; i < invisible.length(); i++) {
            table[invisible.charAt(i)] = SKIP;
        }
        for (int c = 0x200B; c <= 0x200F; c++) {
            table[c] = SKIP;
        }
        for (int c = 0x202A; c <= 0x202E; c++) {
            table[c] = SKIP;
        }
        for (int c = 0x2060; c <= 0x206F; c++) {
            table[c] = SKIP;
        }
        for (int c = 0xFE00; c <= 0xFE0F; c++) {
            table[c] = SKIP;
        }
        return table;
    }

    private static char withoutAccent(char c) {
        String decomposed = Normalizer.normalize(String.valueOf(c), Normalizer.Form.NFD);
        char base = decomposed.charAt(0);
        return base < 0x80 && Character.isLetter(base) ? Character.toLowerCase(base) : Character.toLowerCase(c);
    }

    private static void lookAlikes(char[] table, String... pairs) {
        for (String list : pairs) {
            for (String pair : list.split(" ")) {
                table[pair.charAt(0)] = pair.charAt(1);
            }
        }
    }
}
