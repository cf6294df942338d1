package com.sandboxgateway.review;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The same Python code laid out in other ways that Python runs alike: statements joined with {@code ;},
 * wrapped in {@code if True:} (as a block, on one line, indented with tabs), in a function that is
 * called, decorated, in {@code try:}/{@code finally:}, with comments and blank lines, split across lines
 * inside brackets, continued with backslashes, and seeded random mixes of these. The code is given as statements, one per line; a statement may be a
 * one-line compound statement ({@code for _ in x: f.write(b)}), which stays on a line of its own
 * because whatever followed it on its line would join its body.
 */
final class PythonLayouts {

    private static final Set<String> COMPOUND = Set.of("if", "for", "while", "with", "try", "def", "class", "async");

    private PythonLayouts() {
    }

    /** Each layout of {@code statements} by name; {@code mixes} seeded random mixes are added after the fixed ones. */
    static Map<String, String> of(List<String> statements, long seed, int mixes) {
        Map<String, String> layouts = new LinkedHashMap<>();
        String lines = String.join("\n", statements);
        Random random = new Random(seed);
        layouts.put("lines", lines);
        layouts.put("semicolons", semicolons(statements));
        layouts.put("if block", indentedUnder("if True:", lines));
        layouts.put("if one line", ifOneLine(statements));
        layouts.put("function", indentedUnder("def _cell():", lines) + "\n_cell()");
        layouts.put("decorated", "@(lambda f: f())\n" + indentedUnder("def _cell():", lines));
        layouts.put("try finally", indentedUnder("try:", lines) + "\nfinally:\n    pass");
        layouts.put("comments and blank lines", "# a cell\n\n" + String.join("  # os.system('x'); import subprocess \"\n\n", statements)
                + "  # done");
        layouts.put("tabs", "if True:\n\t" + lines.replace("\n", "\n\t"));
        layouts.put("brackets", brackets(lines, random, 1.0));
        layouts.put("continuations", continuations(lines, random, 1.0));
        List<UnaryOperator<String>> wrappers = List.of(code -> indentedUnder("if True:", code),
                code -> indentedUnder("def _cell():", code) + "\n_cell()", code -> indentedUnder("try:", code) + "\nfinally:\n    pass");
        for (int mix = 0; mix < mixes; mix++) {
            String code = random.nextBoolean() ? semicolons(statements) : lines;
            if (random.nextBoolean()) {
                code = wrappers.get(random.nextInt(wrappers.size())).apply(code);
            }
            code = brackets(code, random, random.nextDouble());
            code = continuations(code, random, random.nextDouble() / 2);
            layouts.put("mix " + (mix + 1) + " (seed " + seed + ")", code);
        }
        return layouts;
    }

    /** Runs of simple statements joined with {@code "; "}, compound statements on lines of their own. */
    static String semicolons(List<String> statements) {
        StringBuilder code = new StringBuilder();
        boolean lineOpen = false;
        for (String statement : statements) {
            boolean compound = isCompound(statement);
            if (lineOpen) {
                code.append(compound ? "\n" : "; ");
            }
            code.append(statement);
            lineOpen = !compound;
            if (compound) {
                code.append('\n');
            }
        }
        return code.toString().strip();
    }

    private static String ifOneLine(List<String> statements) {
        List<String> simple = new ArrayList<>();
        List<String> rest = new ArrayList<>();
        for (String statement : statements) {
            (rest.isEmpty() && !isCompound(statement) ? simple : rest).add(statement);
        }
        String head = simple.isEmpty() ? "" : "if True: " + String.join("; ", simple);
        return (head + "\n" + String.join("\n", rest)).strip();
    }

    private static boolean isCompound(String statement) {
        String first = statement.strip().split("[\\s(:]", 2)[0];
        return COMPOUND.contains(first) || statement.startsWith("@");
    }

    private static String indentedUnder(String header, String code) {
        StringBuilder block = new StringBuilder(header);
        for (String line : code.split("\n", -1)) {
            block.append("\n    ").append(line);
        }
        return block.toString();
    }

    /** A line break and some indentation after each {@code (}, {@code [}, {@code {} and {@code ,} inside brackets, with the given probability. */
    static String brackets(String code, Random random, double probability) {
        StringBuilder out = new StringBuilder(code.length() * 2);
        int depth = 0;
        for (int i = 0; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '\'' || c == '"') {
                int end = stringEnd(code, i);
                out.append(code, i, end);
                i = end - 1;
                continue;
            }
            out.append(c);
            depth += "([{".indexOf(c) >= 0 ? 1 : ")]}".indexOf(c) >= 0 ? -1 : 0;
            if (depth > 0 && "([{,".indexOf(c) >= 0 && random.nextDouble() < probability) {
                out.append('\n').append(" ".repeat(random.nextInt(9)));
            }
        }
        return out.toString();
    }

    /** A backslash line continuation in place of spaces between tokens outside brackets, with the given probability. */
    static String continuations(String code, Random random, double probability) {
        StringBuilder out = new StringBuilder(code.length() * 2);
        int depth = 0;
        boolean lineStart = true;
        for (int i = 0; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '\'' || c == '"') {
                int end = stringEnd(code, i);
                out.append(code, i, end);
                i = end - 1;
                lineStart = false;
                continue;
            }
            depth += "([{".indexOf(c) >= 0 ? 1 : ")]}".indexOf(c) >= 0 ? -1 : 0;
            if (c == ' ' && !lineStart && depth == 0 && random.nextDouble() < probability) {
                out.append(" \\\n").append(" ".repeat(random.nextInt(9)));
            } else {
                out.append(c);
            }
            lineStart = c == '\n' || lineStart && c == ' ';
        }
        return out.toString();
    }

    /** Just past the string literal whose opening quote is at {@code start} (single, double or triple quoted). */
    private static int stringEnd(String code, int start) {
        char quote = code.charAt(start);
        String triple = String.valueOf(quote).repeat(3);
        boolean isTriple = code.startsWith(triple, start);
        int i = start + (isTriple ? 3 : 1);
        while (i < code.length()) {
            if (code.charAt(i) == '\\') {
                i += 2;
            } else if (isTriple ? code.startsWith(triple, i) : code.charAt(i) == quote) {
                return i + (isTriple ? 3 : 1);
            } else {
                i++;
            }
        }
        return code.length();
    }
}
