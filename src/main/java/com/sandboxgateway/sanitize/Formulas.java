package com.sandboxgateway.sanitize;

import java.util.regex.Pattern;

/**
 * Cells a spreadsheet would run as a formula (CSV injection, OWASP): those starting with {@code =},
 * {@code +}, {@code -}, {@code @}, tab or carriage return, unless they are plain numbers such as
 * {@code -12.5}. Defused by a leading apostrophe, which spreadsheets show as text.
 */
final class Formulas {

    private static final Pattern PLAIN_NUMBER = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");

    private Formulas() {
    }

    static boolean looksLikeFormula(CharSequence cell) {
        if (cell.isEmpty()) {
            return false;
        }
        char first = cell.charAt(0);
        if (first != '=' && first != '+' && first != '-' && first != '@' && first != '\t' && first != '\r') {
            return false;
        }
        return !PLAIN_NUMBER.matcher(cell).matches();
    }
}
