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
 * Names come split ({@link DottedName}), so the look-ups cut and hash nothing. Immutable.
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

    /** Whether any glob of the list matches {@code name}. */
    boolean matches(DottedName name) {
        if (anyMatches(byFirstSegment.get(name.segments().getFirst()), name.text())) {
            return true;
        }
        if (!byLaterSegment.isEmpty()) {
            for (int i = 1; i < name.segments().size(); i++) {
                if (anyMatches(byLaterSegment.get(name.segments().get(i)), name.text())) {
                    return true;
                }
            }
        }
        return anyMatches(unfiled, name.text());
    }

    private static boolean anyMatches(List<NameGlob> candidates, String dottedName) {
        if (candidates != null) {
            for (int i = 0; i < candidates.size(); i++) {
                if (candidates.get(i).matches(dottedName)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * A name of a block and its segments, split once: it is held against every list of the rules.
     *
     * @param segments the parts between dots ({@code os.path.join}: {@code os}, {@code path}, {@code join}); at least one
     */
    record DottedName(String text, List<String> segments) {

        static DottedName of(String text) {
            int dot = text.indexOf('.');
            if (dot < 0) {
                return new DottedName(text, List.of(text));
            }
            String[] segments = new String[dots(text) + 1];
            int from = 0;
            for (int i = 0; i < segments.length - 1; i++, dot = text.indexOf('.', from)) {
                segments[i] = text.substring(from, dot);
                from = dot + 1;
            }
            segments[segments.length - 1] = text.substring(from);
            return new DottedName(text, List.of(segments));
        }

        private static int dots(String text) {
            int dots = 0;
            for (int i = 0; i < text.length(); i++) {
                dots += text.charAt(i) == '.' ? 1 : 0;
            }
            return dots;
        }
    }
}
