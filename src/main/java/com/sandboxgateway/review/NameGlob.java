package com.sandboxgateway.review;

import java.util.regex.Pattern;

/**
 * A dotted Python name with {@code *} wildcards, as code rules write them: {@code os.environ},
 * {@code os.exec*}, {@code pandas.read_*}, {@code *.to_csv}. It matches a name that it matches exactly
 * or that extends it with more attributes: {@code os.environ} matches {@code os.environ.get}, so a
 * rule names the thing, not every way of using it. {@code *} stands for any characters, dots included.
 *
 * <p>Every name of a block is held against every glob of the rules, so the common shapes (no
 * {@code *}, one trailing {@code *}, one leading {@code *}) are matched by string comparison; only
 * other shapes use {@code pattern}, which all shapes agree with.
 */
record NameGlob(String glob, Pattern pattern) {

    private static final Pattern VALID = Pattern.compile("[A-Za-z_*][A-Za-z0-9_*]*(\\.[A-Za-z_*][A-Za-z0-9_*]*)*");

    /** @throws IllegalArgumentException when {@code glob} is not a dotted name */
    static NameGlob of(String glob) {
        if (!VALID.matcher(glob).matches()) {
            throw new IllegalArgumentException("'" + glob + "' is not a dotted Python name such as os.environ, os.exec* or *.to_csv");
        }
        String regex = java.util.Arrays.stream(glob.split("\\*", -1)).map(Pattern::quote)
                .collect(java.util.stream.Collectors.joining(".*"));
        return new NameGlob(glob, Pattern.compile(regex + "(\\..*)?"));
    }

    boolean matches(String dottedName) {
        int star = glob.indexOf('*');
        if (star < 0) {
            return dottedName.startsWith(glob) && (dottedName.length() == glob.length() || dottedName.charAt(glob.length()) == '.');
        }
        if (star == glob.length() - 1) {
            return dottedName.regionMatches(0, glob, 0, star);
        }
        if (star == 0 && glob.indexOf('*', 1) < 0) {
            int length = glob.length() - 1;
            for (int at = 0; at + length <= dottedName.length(); at++) {
                if (dottedName.regionMatches(at, glob, 1, length)
                        && (at + length == dottedName.length() || dottedName.charAt(at + length) == '.')) {
                    return true;
                }
            }
            return false;
        }
        return pattern.matcher(dottedName).matches();
    }
}
