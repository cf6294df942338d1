package com.sandboxgateway.review;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One list of globs of the code rules ({@code names}, {@code sinks}, {@code path-calls}, ...), asked whether any
 * of them matches a name. Every name of a block meets every list, and the lists hold up to a hundred globs, so
 * each glob is filed under the one segment a name it matches must have: a glob whose first segment is literal
 * ({@code os.environ}, {@code os.exec*}, {@code open}) matches only names of that first segment, and a glob
 * {@code *.to_csv} (a star, a dot, then a segment that ends at a dot or at the end) only names with a later
 * segment {@code to_csv}. A name is then held against the globs filed under its own segments and the few of other
 * shapes; each still decides by {@link NameGlob#matches}, so the answer is the list's, only found sooner.
 * Immutable.
 */
final class NameGlobs {

    private final List<NameGlob> globs;
    private final Map<String, List<NameGlob>> byFirstSegment = new HashMap<>();
    private final Map<String, List<NameGlob>> byLaterSegment = new HashMap<>();
    private final List<NameGlob> unfiled = new ArrayList<>();

    NameGlobs(List<NameGlob> globs) {
        this.globs = List.copyOf(globs);
        for (NameGlob glob : this.globs) {
            file(glob);
        }
    }

    private void file(NameGlob glob) {
        String text = glob.glob();
        int star = text.indexOf('*');
        int dot = text.indexOf('.');
        if (star < 0 || dot >= 0 && dot < star) {
            byFirstSegment.computeIfAbsent(dot < 0 ? text : text.substring(0, dot), segment -> new ArrayList<>(2)).add(glob);
            return;
        }
        if (text.startsWith("*.")) {
            int end = 2;
            while (end < text.length() && text.charAt(end) != '.' && text.charAt(end) != '*') {
                end++;
            }
            if (end > 2 && (end == text.length() || text.charAt(end) == '.')) {
                byLaterSegment.computeIfAbsent(text.substring(2, end), segment -> new ArrayList<>(2)).add(glob);
                return;
            }
        }
        unfiled.add(glob);
    }

    List<NameGlob> globs() {
        return globs;
    }

    boolean isEmpty() {
        return globs.isEmpty();
    }

    /** These globs and then {@code more}'s: an operator's rule file extends the standard lists. */
    NameGlobs plus(NameGlobs more) {
        return new NameGlobs(Stream.concat(globs.stream(), more.globs.stream()).toList());
    }

    /** Whether any glob of the list matches {@code dottedName}. */
    boolean matches(String dottedName) {
        int dot = dottedName.indexOf('.');
        if (anyMatches(byFirstSegment.get(dot < 0 ? dottedName : dottedName.substring(0, dot)), dottedName)) {
            return true;
        }
        if (!byLaterSegment.isEmpty()) {
            while (dot >= 0) {
                int next = dottedName.indexOf('.', dot + 1);
                String segment = dottedName.substring(dot + 1, next < 0 ? dottedName.length() : next);
                if (anyMatches(byLaterSegment.get(segment), dottedName)) {
                    return true;
                }
                dot = next;
            }
        }
        return anyMatches(unfiled, dottedName);
    }

    private static boolean anyMatches(List<NameGlob> candidates, String dottedName) {
        if (candidates != null) {
            for (NameGlob glob : candidates) {
                if (glob.matches(dottedName)) {
                    return true;
                }
            }
        }
        return false;
    }
}
