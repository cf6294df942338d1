package com.sandboxgateway.review;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import com.sandboxgateway.review.CodeLayoutCases.Case;
import com.sandboxgateway.review.PythonToken.Kind;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The gateway's model of a code block against CPython's own parser: for several hundred blocks (every
 * layout of the {@link CodeLayoutCases}, the code corpora, and {@code review/code/syntax.txt}, a
 * catalogue of Python forms), the imports, called names and URL hosts that {@code python3}'s
 * {@code ast} module finds ({@code review/ast_facts.py}, run with {@code python3 -c}) must be the ones
 * {@link CodeModel} finds. {@code .ci/run} installs python3 where it is missing; without it this test
 * fails rather than skips.
 */
class CodeModelDifferentialTest {

    /** IPython syntax ({@code !cmd}, {@code %magic}, {@code x = !cmd}) is not Python: such corpus blocks are left out. */
    private static final Pattern IPYTHON = Pattern.compile("(?m)^\\s*([!%]|\\w+\\s*=\\s*[!%])");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void shouldFindTheImportsCallsAndHostsThatCpythonFinds() throws Exception {
        Map<String, String> blocks = blocks();
        List<String> codes = List.copyOf(blocks.values());

        JsonNode answers = astFacts(codes);

        assertThat(answers.size()).isEqualTo(codes.size());
        List<String> problems = new ArrayList<>();
        int different = 0;
        int i = 0;
        for (Map.Entry<String, String> block : blocks.entrySet()) {
            JsonNode expected = answers.get(i++);
            if (expected.has("error")) {
                problems.add(block.getKey() + ": no valid Python, " + expected.get("error").asString() + "\n" + block.getValue());
                continue;
            }
            Map<String, Set<String>> model = modelFacts(block.getValue());
            for (String fact : model.keySet()) {
                Set<String> cpython = new TreeSet<>();
                expected.get(fact).forEach(value -> cpython.add(value.asString()));
                if (!cpython.equals(model.get(fact))) {
                    different++;
                    problems.add(block.getKey() + ": " + fact + " ast " + cpython + " model " + model.get(fact)
                            + "\n" + block.getValue());
                }
            }
        }
        System.out.printf("differential test against CPython ast: %d blocks, %d facts differ%n", codes.size(), different);
        assertThat(codes).hasSizeGreaterThan(300);
        assertThat(problems).as("blocks that are no valid Python, or whose facts the model finds otherwise than CPython").isEmpty();
    }

    /** Whether a block uses IPython syntax, which CPython's parser rejects. */
    static boolean isIpython(String code) {
        return IPYTHON.matcher(code).find();
    }

    /** The blocks to compare, by a name that says where each comes from. */
    private static Map<String, String> blocks() {
        Map<String, String> blocks = new LinkedHashMap<>();
        List<Case> cases = new ArrayList<>(CodeLayoutCases.RISKY);
        cases.addAll(CodeLayoutCases.BENIGN);
        for (int c = 0; c < cases.size(); c++) {
            Case snippet = cases.get(c);
            PythonLayouts.of(snippet.statements(), 3000L + c, 3)
                    .forEach((layout, code) -> blocks.put(snippet + " [" + layout + "]", code));
        }
        for (String directory : List.of("code/benign", "code/risky")) {
            for (Path file : ReviewCorpus.pythonFiles(directory)) {
                String code = ReviewCorpus.read(file);
                if (!isIpython(code)) {
                    blocks.put(directory + "/" + file.getFileName(), code);
                }
            }
        }
        List<String> syntax = ReviewCorpus.lines("code/syntax.txt");
        for (int line = 0; line < syntax.size(); line++) {
            blocks.put("code/syntax.txt block " + (line + 1), syntax.get(line));
        }
        return blocks;
    }

    private static Map<String, Set<String>> modelFacts(String code) {
        CodeModel model = CodeModel.of(PythonLexer.lex(code).tokens(), Map.of());
        Set<String> calls = new TreeSet<>();
        for (CodeModel.Reference reference : model.references()) {
            if (reference.isCall() && !reference.name().startsWith("?.")) {
                calls.add(reference.name());
            }
        }
        Set<String> hosts = new TreeSet<>();
        for (PythonToken token : model.tokens()) {
            String host = token.kind() == Kind.STRING ? HostTarget.ofUrl(token.text()) : null;
            if (host != null && !host.equals(HostTarget.UNKNOWN)) {
                hosts.add(host);
            }
        }
        Map<String, Set<String>> facts = new LinkedHashMap<>();
        facts.put("imports", new TreeSet<>(model.imports()));
        facts.put("calls", calls);
        facts.put("hosts", hosts);
        return facts;
    }

    /** Runs {@code review/ast_facts.py} with {@code python3 -c}, the blocks as JSON on its standard input. */
    private static JsonNode astFacts(List<String> codes) throws IOException, InterruptedException {
        String script;
        try (InputStream in = CodeModelDifferentialTest.class.getResourceAsStream("/review/ast_facts.py")) {
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Path errors = Files.createTempFile("ast-facts", ".txt");
        try {
            Process python;
            try {
                python = new ProcessBuilder("python3", "-c", script).redirectError(errors.toFile()).start();
            } catch (IOException e) {
                throw new AssertionError("python3 is needed to compare the model with CPython's parser and could not be run"
                        + " (bash .ci/run installs it; on Debian: apt-get install python3): " + e.getMessage(), e);
            }
            try (OutputStream in = python.getOutputStream()) {
                in.write(JSON.writeValueAsBytes(codes));
            }
            byte[] output = python.getInputStream().readAllBytes();
            if (!python.waitFor(2, TimeUnit.MINUTES)) {
                python.destroyForcibly();
                throw new AssertionError("python3 did not finish within 2 minutes");
            }
            assertThat(python.exitValue()).as("python3 exit code; its errors: %s", Files.readString(errors)).isZero();
            return JSON.readTree(output);
        } finally {
            Files.deleteIfExists(errors);
        }
    }
}
