package com.sandboxgateway.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CodeRulesTest {

    @Test
    void shouldLoadTheStandardFlags() {
        assertThat(CodeRules.standard().flagNames()).containsExactly("env_access", "credential_file", "subprocess",
                "raw_socket", "http_client", "package_install", "outside_mnt_data", "large_write", "dynamic_exec_downloaded",
                "base64_obfuscation", "dynamic_exec");
    }

    @Test
    void shouldLetOperatorsAddFlagsExtendStandardOnesAndDisableOthers(@TempDir Path dir) throws Exception {
        Path extra = dir.resolve("operator-code-rules.yml");
        Files.writeString(extra, """
                aliases:
                  ah: acme_http
                code-calls: [acme_sandbox.run_python]
                disabled: [large_write]
                flags:
                  internal_api:
                    description: talks to the internal billing API
                    names: [acme_billing.*]
                  http_client:
                    names: [acme_http.*]
                """);
        CodeRules rules = CodeRules.standard().with(CodeRules.load(extra));
        CodeRiskAnalyzer analyzer = CodeRiskAnalyzer.fromRules(rules);

        assertThat(rules.flagNames()).contains("internal_api").doesNotContain("large_write");
        assertThat(analyzer.analyze("import acme_billing\nacme_billing.charge(1)\nah.fetch('https://x.example.com')\n"
                + "s = 'x' * 10**10", null)).containsExactly(new CodeFlag("http_client", "host=x.example.com allowed=false"),
                new CodeFlag("internal_api", null));
        assertThat(analyzer.analyze("import acme_sandbox\nacme_sandbox.run_python('import os; print(os.environ)')", null))
                .containsExactly(new CodeFlag("env_access", null));
    }

    @Test
    void shouldRejectInvalidRuleFilesNamingTheFlagAndTheProblem() {
        assertInvalid("flags:\n  mine:\n    shell: ['(unclosed']\n", "flag 'mine': 'shell' item 1 is not a valid regular expression");
        assertInvalid("flags:\n  mine:\n    nmaes: [os.environ]\n", "flag 'mine': unknown key 'nmaes'");
        assertInvalid("flags:\n  mine:\n    names: ['os..environ']\n", "flag 'mine': 'names' item 1: 'os..environ' is not a dotted Python name");
        assertInvalid("code-calls: ['exec(']\n", "'code-calls': 'exec(' is not a dotted Python name");
        assertInvalid("flags:\n  mine:\n    sinks: [exec]\n", "flag 'mine': 'sinks' needs 'sources' or 'non-literal: true'");
        assertInvalid("flags:\n  mine:\n    description: nothing else\n", "flag 'mine': has no evidence to look for");
        assertInvalid("flags:\n  mine:\n    names: [x]\n    detail: everything\n", "flag 'mine': 'detail' must be none, host, path or file");
        assertInvalid("flags:\n  Mine:\n    names: [x]\n", "flag 'Mine': flag names must be lower case");
        assertInvalid("flags:\n  mine:\n    inside-of: [mnt/data]\n", "'inside-of' entries must be absolute directories");
        assertInvalid("limits:\n  max-flags: 0\n", "'max-flags' must be a whole number from 1 to 1000");
        assertInvalid("flagz: {}\n", "unknown key 'flagz'");
        assertThatThrownBy(() -> CodeRules.standard().with(rules("disabled: [no_such_flag]\n")))
                .isInstanceOf(InvalidRulesException.class).hasMessageContaining("'disabled' names 'no_such_flag'");
        assertThatThrownBy(() -> CodeRules.standard().with(rules("flags:\n  http_client:\n    names: [x]\n    detail: path\n")))
                .isInstanceOf(InvalidRulesException.class)
                .hasMessageContaining("flag 'http_client' sets 'detail' to path but the flag it extends reports host");
    }

    private static CodeRules rules(String yaml) {
        return CodeRules.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)), "operator.yml");
    }

    private static void assertInvalid(String yaml, String message) {
        assertThatThrownBy(() -> rules(yaml)).isInstanceOf(InvalidRulesException.class)
                .hasMessageStartingWith("operator.yml: ").hasMessageContaining(message);
    }
}
